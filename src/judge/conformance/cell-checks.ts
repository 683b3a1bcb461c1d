import type { History, Message } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import {
  JUDGE_PAD as MUST_ECHO_PLACEHOLDER,
  judgeClaudeOpaqueStrings as claudeOpaqueStrings,
  judgeHasReadableReasoning as hasReadableReasoning,
  judgeHasStoredReasoning as hasStoredReasoning,
  judgeIsToolCallTurn as isToolCallTurn,
} from './judge-predicates.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';
import { familyDescriptor } from '../../shared/wire/families.js';
import type { Behaviour, Check } from './verdict.js';
import { stringLeaves, wireCarrierKeys } from './wire-carriers.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/** One request as the gate judges it: the history it was built from and the body that went out. */
export interface SentRequest {
  call: number;
  history: History;
  body: Record<string, unknown>;
  /** The route the judge read off the table for the target (not the engine's own reading). */
  policy: RoutePolicy;
  spec: ProviderSpec;
  /** The table the policy comes from: other routes' vendor flags are judged against it. */
  table?: RouteTable;
  /** Carriers this session learned the target refuses (a counted unknown-field rejection): withholding them is right. */
  refused?: ReadonlySet<string>;
  /**
   * How the engine is judged (default `contract`). This project's own engine keeps its contract: each choice
   * decision 0002 makes is a failure when broken. Another team's engine (`check --engine`) is judged by harm:
   * a choice the providers accept and that loses no reasoning the history holds is a warning naming the choice
   * this project makes and why; refusals, reasoning lost and carriers sent to the wrong route still fail.
   */
  judgedBy?: JudgedBy;
  /**
   * History indices of assistant turns a binding model wrote for another model than this request's (the judge's own
   * record of which model answered each call): their thinking is bound to that model, and leaving it out is right.
   */
  boundElsewhere?: ReadonlySet<number>;
}

export type JudgedBy = 'contract' | 'harm';

/**
 * The pad on a plain turn of a must-echo route: accepted by the providers, and no stored reasoning is replaced by
 * it. Why this project pads less, for the warning.
 */
const PAD_CHOICE =
  'the providers accept it and no stored reasoning is lost, so for an engine under --engine it is a warning; this project pads only must-echo tool-call turns without readable reasoning, the turns DeepSeek, Kimi and MiMo document a 400 for (docs/decisions/0002-the-pad.md)';

const CHAT_SHAPED = new Set(['openai-chat', 'copilot']);
const READABLE = new Set(['reasoning_content', 'reasoning']);

function problem(behaviour: Behaviour, detail: string): Check {
  return { behaviour, status: 'fail', detail };
}

/**
 * Reasoning kept before the split point for a model the table replays `strip`, where its provider does not refuse it:
 * why this project strips anyway, for the warning. A provider that refuses it (DeepSeek R1 on Bedrock) is judged by its
 * mock, which answers the refusal.
 */
const STRIP_CHOICE =
  'no refusal of it is documented for this model and its chat template leaves earlier turns out, so nothing is lost and for an engine under --engine it is a warning; this project strips reasoning before the last user message for the models the table replays strip (docs/decisions/0010-bedrock-split-point.md)';

/** A departure from this project's choices: a failure for its own engine, a warning for one judged by harm. */
function choice(req: SentRequest, behaviour: Behaviour, detail: string, why: string = PAD_CHOICE): Check {
  return req.judgedBy === 'harm'
    ? { behaviour, status: 'warn', detail: `${detail} (a choice, not harm: ${why})` }
    : problem(behaviour, detail);
}

/**
 * Visits each chat-shaped wire message beside the history message it was built from (the engine
 * keeps indexes aligned); nothing for other families, whose bodies do not line up with history.
 */
function eachChatMessage(
  req: SentRequest,
  visit: (
    wire: Record<string, unknown>,
    source: Message | undefined,
    index: number,
    where: string,
    out: Check[],
  ) => void,
): Check[] {
  const out: Check[] = [];
  const where = `call ${req.call} to ${req.spec.id} (route ${req.policy.routeId})`;
  chatMessages(req)?.forEach((wire, i) => visit(wire, req.history.messages[i], i, where, out));
  return out;
}

function chatMessages(req: SentRequest): Array<Record<string, unknown>> | undefined {
  if (!CHAT_SHAPED.has(req.policy.family) || !Array.isArray(req.body.messages)) return undefined;
  return req.body.messages as Array<Record<string, unknown>>;
}

/** Does history message `m` hold reasoning that `field` could carry? */
function holdsFor(m: Message, field: string): boolean {
  if (READABLE.has(field)) return (m.reasoning_content ?? '').trim() !== '' || (m.reasoning ?? '').trim() !== '';
  if (field === 'reasoning_details') return (m.reasoning_details?.length ?? 0) > 0;
  return false;
}

/**
 * fields-sent: no message carries a standard carrier its route does not read, and every carrier the
 * provider documents as wanted back arrives where history holds it (a drop is silent degradation).
 */
export function checkFieldsSent(req: SentRequest): Check[] {
  return eachChatMessage(req, (wire, source, i, where, out) => {
    for (const field of ['reasoning_content', 'reasoning', 'reasoning_details']) {
      if (!(field in wire)) continue;
      const pad =
        field === 'reasoning_content' && req.policy.tier === 'must-echo' && wire[field] === MUST_ECHO_PLACEHOLDER;
      if (!req.policy.fields.includes(field as never) && !pad) {
        out.push(
          problem(
            'fields-sent',
            `${where}: message ${i} carries ${field}, which route ${req.policy.routeId} does not read`,
          ),
        );
      }
    }
    if (!source || source.role !== 'assistant') return;
    for (const rule of req.spec.echo) {
      if (rule.level !== 'recommended' || (rule.turns === 'tool-call-turns' && !isToolCallTurn(source))) continue;
      if (req.refused?.has(rule.field)) continue;
      if (holdsFor(source, rule.field) && !(rule.field in wire)) {
        out.push(
          problem(
            'fields-sent',
            `${where}: ${req.spec.label} wants ${rule.field} back (${rule.source ?? 'provider docs'}); history message ${i} holds it but route ${req.policy.routeId} dropped it`,
          ),
        );
      }
    }
  });
}

/**
 * must-echo: tool-call turns carry reasoning_content (readable reasoning, else the pad); no pad where readable
 * reasoning exists, on a plain turn (README, decision 0002: DeepSeek, Kimi and MiMo document the 400 for
 * tool-call turns only, and a pad there is invented content), or off the tier.
 */
export function checkMustEcho(req: SentRequest): Check[] {
  return eachChatMessage(req, (wire, source, i, where, out) => {
    if (!source || source.role !== 'assistant') return;
    const value = wire.reasoning_content;
    if (!isToolCallTurn(source)) {
      // A stored " " replayed as it was stored is the turn's own bytes; a pad written here is not.
      if (
        req.policy.tier === 'must-echo' &&
        value === MUST_ECHO_PLACEHOLDER &&
        !hasReadableReasoning(source) &&
        source.reasoning_content !== MUST_ECHO_PLACEHOLDER
      )
        out.push(
          choice(
            req,
            'must-echo',
            `${where}: plain assistant message ${i} (no tool calls) got the " " pad: the pad belongs on tool-call turns without reasoning only`,
          ),
        );
      else if (req.policy.tier === 'must-echo' && value === MUST_ECHO_PLACEHOLDER && hasReadableReasoning(source))
        out.push(
          problem(
            'must-echo',
            `${where}: plain assistant message ${i} got the " " pad instead of the readable reasoning its history holds${heldOnlyAsItems(source)}`,
          ),
        );
      return;
    }
    if (req.policy.tier === 'must-echo') {
      if (typeof value !== 'string' || value === '') {
        out.push(
          problem(
            'must-echo',
            `${where}: tool-call message ${i} went out without reasoning_content on a must-echo route`,
          ),
        );
      } else if (hasReadableReasoning(source) && value === MUST_ECHO_PLACEHOLDER) {
        out.push(
          problem(
            'must-echo',
            `${where}: message ${i} got the " " pad although it has stored reasoning${heldOnlyAsItems(source)}`,
          ),
        );
      } else if (!hasReadableReasoning(source) && value !== MUST_ECHO_PLACEHOLDER) {
        out.push(
          problem(
            'must-echo',
            `${where}: message ${i} has no readable reasoning but was sent ${JSON.stringify(value)} (only the " " pad is allowed; never invented reasoning)`,
          ),
        );
      }
    } else if (value === MUST_ECHO_PLACEHOLDER && !hasStoredReasoning(source)) {
      // Off the tier the pad is a must-echo route's carrier on the wrong route: the engine resolved the target to
      // a must-echo route it is not (a look-alike host, the wrong row winning). A failure on either contract.
      out.push(
        problem(
          'must-echo',
          `${where}: the must-echo pad leaked to ${req.policy.tier} route ${req.policy.routeId} at message ${i}`,
        ),
      );
    }
  });
}

/** Names where a turn's readable reasoning survives when it is not in reasoning_content or reasoning. */
function heldOnlyAsItems(m: Message): string {
  const plain = (m.reasoning_content ?? '').trim() !== '' || (m.reasoning ?? '').trim() !== '';
  return plain
    ? ''
    : ' (it survives only as readable reasoning_details items, whose text must be sent: reasoning lost)';
}

/** strict-schema: a strict route sends no reasoning key at all, not even the pad. */
export function checkStrictSchema(req: SentRequest): Check[] {
  if (req.policy.tier !== 'strict') return [];
  const out: Check[] = [];
  // The engine never sends a reasoning key on a strict route, so a field listed there is silently
  // ignored: the table contradicts itself, and whoever edited it meant something else.
  if (req.policy.fields.length > 0) {
    out.push(
      problem(
        'strict-schema',
        `route ${req.policy.routeId} is strict but lists ${req.policy.fields.join(', ')}; a strict route never sends a reasoning key (make it standard and see whether ${req.spec.label} accepts the field, or remove it)`,
      ),
    );
  }
  const messages = chatMessages(req);
  const keys = wireCarrierKeys(messages ?? req.body.messages ?? req.body);
  if (keys.length > 0)
    out.push(
      problem('strict-schema', `call ${req.call}: strict route ${req.policy.routeId} was sent ${keys.join(', ')}`),
    );
  return out;
}

/**
 * Opaque strings (signatures, encrypted data) of one message that `policy`'s route must get back,
 * in order. Claude-family wires take only Claude-signed items: other formats are correctly never
 * sent there, so they must not count as missing.
 */
function opaqueItems(m: Message, policy: RoutePolicy): string[] {
  const wire = familyDescriptor(policy.family).reasoningOnWire;
  if (wire.kind === 'blocks' && wire.signedBy === 'anthropic') return claudeOpaqueStrings(m.reasoning_details);
  const out: string[] = [];
  for (const d of m.reasoning_details ?? []) {
    if ('signature' in d && typeof d.signature === 'string' && d.signature) out.push(d.signature);
    if ('data' in d && typeof d.data === 'string' && d.data) out.push(d.data);
  }
  return out;
}

/**
 * signatures-verbatim: where a route replays a message's signed/encrypted items, all of them, byte for byte, in order.
 */
export function checkSignaturesVerbatim(req: SentRequest): Check[] {
  if (req.policy.replayPolicy === 'strip' || req.policy.replayPolicy === 'unsigned') return [];
  const text = JSON.stringify(req.body);
  const out: Check[] = [];
  if (req.refused?.has('reasoning_details')) return [];
  const reads = req.policy.fields.includes('reasoning_details') && req.policy.tier !== 'strict';
  // A model that binds thinking to its prefix cannot take a block produced before a later system message changed
  // the system prompt, nor one a binding model wrote for another model: leaving it out is right, and binding-respected
  // judges the blocks that are sent.
  const lastSystem = req.policy.bindsThinking ? req.history.messages.map((m) => m.role).lastIndexOf('system') : -1;
  req.history.messages.forEach((m, i) => {
    if (m.role === 'assistant' && (i < lastSystem || req.boundElsewhere?.has(i))) return;
    const items = opaqueItems(m, req.policy);
    if (items.length === 0) return;
    const positions = items.map((item) => text.indexOf(JSON.stringify(item).slice(1, -1)));
    const sent = positions.filter((p) => p >= 0).length;
    if (sent === 0 && !reads) return;
    if (sent < items.length) {
      out.push(
        problem(
          'signatures-verbatim',
          `call ${req.call}: ${items.length - sent} of ${items.length} signed/encrypted item(s) of message ${i} did not reach route ${req.policy.routeId} byte for byte`,
        ),
      );
    } else if (positions.some((p, k) => k > 0 && p < positions[k - 1]!)) {
      out.push(
        problem('signatures-verbatim', `call ${req.call}: signed/encrypted items of message ${i} were reordered`),
      );
    }
  });
  return out;
}

/** native-scoped: a native record's values reach its own route, and not one byte of them reaches any other. */
export function checkNativeScoped(req: SentRequest): Check[] {
  const text = JSON.stringify(req.body);
  const out: Check[] = [];
  req.history.messages.forEach((m, i) => {
    if (!m.native) return;
    const own = req.policy.native !== undefined && m.native.route === req.policy.native;
    for (const value of stringLeaves(m.native.fields)) {
      const present = text.includes(JSON.stringify(value).slice(1, -1));
      if (!own && present)
        out.push(
          problem(
            'native-scoped',
            `call ${req.call}: the ${m.native.route} native record of message ${i} leaked to route ${req.policy.routeId}`,
          ),
        );
      if (own && !present)
        out.push(
          problem(
            'native-scoped',
            `call ${req.call}: route ${req.policy.routeId} owns the native record of message ${i} but did not receive it`,
          ),
        );
    }
  });
  return out;
}

/** Leaves of a flag set: [path, value] pairs ("thinking.keep", "all"). */
function flagLeaves(value: unknown, path = ''): Array<[string, unknown]> {
  if (!isPlainObject(value)) return path ? [[path, value]] : [];
  return Object.entries(value).flatMap(([k, v]) => flagLeaves(v, path ? `${path}.${k}` : k));
}

function valueAt(body: Record<string, unknown>, path: string): unknown {
  let at: unknown = body;
  for (const key of path.split('.')) at = isPlainObject(at) ? at[key] : undefined;
  return at;
}

/**
 * fields-sent, vendor flags: the keep-thinking flags the table gives this route for this model are in the body, and
 * no flag another route (or this route for other models) owns alone is. The seed: "vendor flags travel with their
 * route only". A flag several routes set alike (thinking.type) is nobody's alone, so it is not judged as a leak.
 */
export function checkFlags(req: SentRequest): Check[] {
  if (!CHAT_SHAPED.has(req.policy.family)) return [];
  const out: Check[] = [];
  const where = `call ${req.call} to ${req.spec.id} (route ${req.policy.routeId}, model ${req.policy.target.model})`;
  const expected = new Map(flagLeaves(req.policy.flags));
  for (const [path, value] of expected) {
    if (JSON.stringify(valueAt(req.body, path)) !== JSON.stringify(value))
      out.push(
        problem('fields-sent', `${where}: the route's keep-thinking flag ${path}=${JSON.stringify(value)} is missing`),
      );
  }
  if (!req.table) return out;
  // Which routes set each flag path: a path only one route sets is that route's vendor flag.
  const owners = new Map<string, Set<string>>();
  for (const route of req.table.routes)
    for (const flag of route.flags ?? [])
      for (const [path] of flagLeaves(flag.set)) owners.set(path, (owners.get(path) ?? new Set()).add(route.id));
  for (const route of req.table.routes) {
    for (const flag of route.flags ?? []) {
      for (const [path, value] of flagLeaves(flag.set)) {
        if (expected.has(path) || owners.get(path)!.size !== 1) continue;
        if (JSON.stringify(valueAt(req.body, path)) !== JSON.stringify(value)) continue;
        const whose = route.id === req.policy.routeId ? `for other models of route ${route.id}` : `route ${route.id}'s`;
        out.push(
          problem(
            'fields-sent',
            `${where}: sent ${path}=${JSON.stringify(value)}, a keep-thinking flag ${whose} (${flag.source ?? 'routes.json'}); vendor flags travel with their route and models only`,
          ),
        );
      }
    }
  }
  return out;
}

interface ConverseBlock {
  reasoningContent?: { reasoningText?: { text?: string; signature?: string }; redactedContent?: string };
}

/** The readable reasoning a Bedrock turn was stored with (Anthropic-shaped thinking, or OpenRouter text items). */
function storedThinking(m: Message): string[] {
  return (m.reasoning_details ?? []).flatMap((d) => {
    const r = d as Record<string, unknown>;
    const text = d.type === 'thinking' ? r.thinking : d.type === 'reasoning.text' ? r.text : undefined;
    return typeof text === 'string' && text.trim() !== '' ? [text] : [];
  });
}

/**
 * fields-sent on Bedrock Converse, by the table's replay policy for the model (README, decision 0010, the seed):
 * - signed (Claude): thinking is requested (additionalModelRequestFields.thinking), or the model answers without
 *   the reasoning the route exists to replay;
 * - unsigned: earlier turns keep their reasoning text, never a signature or a redacted blob (such models answer
 *   "This model doesn't support the reasoningContent.reasoningText.signature field");
 * - strip: no reasoning before the split point (the last user message), a choice where the provider does not refuse
 *   it (a warning under --engine; R1's mock refuses it); inside the current tool loop, the turns keep theirs, as
 *   captured, on either contract: a loop that lost its reasoning is reasoning lost.
 */
export function checkBedrockPolicy(req: SentRequest): Check[] {
  if (req.policy.family !== 'bedrock-converse' || !Array.isArray(req.body.messages)) return [];
  const out: Check[] = [];
  const where = `call ${req.call} to ${req.spec.id} (route ${req.policy.routeId}, model ${req.policy.target.model}, ${req.policy.replayPolicy ?? 'no'} policy)`;
  const blocks = (req.body.messages as Array<{ content?: unknown }>).flatMap((m) =>
    Array.isArray(m.content) ? (m.content as ConverseBlock[]) : [],
  );
  const reasoning = blocks.flatMap((b): NonNullable<ConverseBlock['reasoningContent']>[] =>
    isPlainObject(b) && isPlainObject(b.reasoningContent) ? [b.reasoningContent] : [],
  );
  if (req.policy.replayPolicy === 'signed') {
    const extra = req.body.additionalModelRequestFields;
    if (!isPlainObject(extra) || extra.thinking === undefined)
      out.push(
        problem(
          'fields-sent',
          `${where}: no thinking requested (additionalModelRequestFields.thinking) for a model the table replays signed`,
        ),
      );
  }
  if (req.policy.replayPolicy === 'unsigned') {
    const signed = reasoning.filter((r) => r.redactedContent !== undefined || r.reasoningText?.signature !== undefined);
    if (signed.length > 0)
      out.push(
        problem(
          'fields-sent',
          `${where}: ${signed.length} reasoning block(s) went out with a signature or redacted blob; the unsigned policy replays the text only`,
        ),
      );
  }
  if (req.policy.replayPolicy === 'strip') {
    const sent = new Set(reasoning.map((r) => r.reasoningText?.text).filter((t): t is string => typeof t === 'string'));
    let split = -1;
    req.history.messages.forEach((m, i) => {
      if (m.role === 'user') split = i;
    });
    req.history.messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      for (const text of storedThinking(m)) {
        if (i < split && sent.has(text))
          out.push(
            choice(
              req,
              'fields-sent',
              `${where}: message ${i}, before the split point (message ${split}), kept its reasoning`,
              STRIP_CHOICE,
            ),
          );
        if (i > split && !sent.has(text))
          out.push(
            problem(
              'fields-sent',
              `${where}: message ${i} is inside the current tool loop (after message ${split}) but its reasoning was stripped`,
            ),
          );
      }
    });
  }
  return out;
}

/** Which behaviours a request exercises at all, so untouched ones are n/a rather than a vacuous pass. */
export function applicableBehaviours(req: SentRequest): Set<Behaviour> {
  const applies = new Set<Behaviour>(['history-unmutated', 'provider-accepts']);
  const assistants = req.history.messages.filter((m) => m.role === 'assistant');
  if (chatMessages(req) || req.policy.family === 'bedrock-converse') applies.add('fields-sent');
  const padScope = req.policy.tier === 'must-echo' && assistants.length > 0;
  if (chatMessages(req) && (padScope || assistants.some(isToolCallTurn))) applies.add('must-echo');
  if (req.policy.tier === 'strict' || req.spec.request.unknownFieldRejection) applies.add('strict-schema');
  const replaysOpaque =
    req.policy.fields.includes('reasoning_details') &&
    req.policy.tier !== 'strict' &&
    req.policy.replayPolicy !== 'strip' &&
    req.policy.replayPolicy !== 'unsigned';
  if (replaysOpaque && assistants.some((m) => opaqueItems(m, req.policy).length > 0)) {
    applies.add('signatures-verbatim');
  }
  if (assistants.some((m) => m.native)) applies.add('native-scoped');
  return applies;
}

export function checkRequest(req: SentRequest): { applies: Set<Behaviour>; problems: Check[] } {
  return {
    applies: applicableBehaviours(req),
    problems: [
      ...checkFieldsSent(req),
      ...checkFlags(req),
      ...checkBedrockPolicy(req),
      ...checkMustEcho(req),
      ...checkStrictSchema(req),
      ...checkSignaturesVerbatim(req),
      ...checkNativeScoped(req),
    ],
  };
}
