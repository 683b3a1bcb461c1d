import type { History, Message } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import {
  JUDGE_PAD as MUST_ECHO_PLACEHOLDER,
  judgeClaudeOpaqueStrings as claudeOpaqueStrings,
  judgeHasReadableReasoning as hasReadableReasoning,
  judgeHasStoredReasoning as hasStoredReasoning,
  judgeIsToolCallTurn as isToolCallTurn,
} from './judge-predicates.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { familyDescriptor } from '../../shared/wire/families.js';
import type { Behaviour, Check } from './verdict.js';
import { stringLeaves, wireCarrierKeys } from './wire-carriers.js';

/** One request as the gate judges it: the history it was built from and the body that went out. */
export interface SentRequest {
  call: number;
  history: History;
  body: Record<string, unknown>;
  policy: RoutePolicy;
  spec: ProviderSpec;
}

const CHAT_SHAPED = new Set(['openai-chat', 'copilot']);
const READABLE = new Set(['reasoning_content', 'reasoning']);

function problem(behaviour: Behaviour, detail: string): Check {
  return { behaviour, status: 'fail', detail };
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
 * reasoning exists or off the tier.
 */
export function checkMustEcho(req: SentRequest): Check[] {
  return eachChatMessage(req, (wire, source, i, where, out) => {
    if (!source || !isToolCallTurn(source)) return;
    const value = wire.reasoning_content;
    if (req.policy.tier === 'must-echo') {
      if (typeof value !== 'string' || value === '') {
        out.push(
          problem(
            'must-echo',
            `${where}: tool-call message ${i} went out without reasoning_content on a must-echo route`,
          ),
        );
      } else if (hasReadableReasoning(source) && value === MUST_ECHO_PLACEHOLDER) {
        out.push(problem('must-echo', `${where}: message ${i} got the " " pad although it has stored reasoning`));
      } else if (!hasReadableReasoning(source) && value !== MUST_ECHO_PLACEHOLDER) {
        out.push(
          problem(
            'must-echo',
            `${where}: message ${i} has no readable reasoning but was sent ${JSON.stringify(value)} (only the " " pad is allowed; never invented reasoning)`,
          ),
        );
      }
    } else if (value === MUST_ECHO_PLACEHOLDER && !hasStoredReasoning(source)) {
      out.push(
        problem(
          'must-echo',
          `${where}: the must-echo pad leaked to ${req.policy.tier} route ${req.policy.routeId} at message ${i}`,
        ),
      );
    }
  });
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
  const reads = req.policy.fields.includes('reasoning_details') && req.policy.tier !== 'strict';
  req.history.messages.forEach((m, i) => {
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

/** Which behaviours a request exercises at all, so untouched ones are n/a rather than a vacuous pass. */
export function applicableBehaviours(req: SentRequest): Set<Behaviour> {
  const applies = new Set<Behaviour>(['history-unmutated', 'provider-accepts']);
  const assistants = req.history.messages.filter((m) => m.role === 'assistant');
  if (chatMessages(req)) applies.add('fields-sent');
  if (chatMessages(req) && assistants.some(isToolCallTurn)) applies.add('must-echo');
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
      ...checkMustEcho(req),
      ...checkStrictSchema(req),
      ...checkSignaturesVerbatim(req),
      ...checkNativeScoped(req),
    ],
  };
}
