import { WIRE_CARRIER_KEYS } from '../../../judge/conformance/wire-carriers.js';
import { atPointer } from '../../../provider/rules/message-echo-judge.js';
import type { Finding } from '../../../shared/findings/finding.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { EchoRule, ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { redactText } from '../recorder/redact.js';
import { oneLine } from '../report/xml-escape.js';

/** One reasoning carrier a turn held: where, which, and its value cut short. */
export interface SentCarrier {
  /** `messages[1].reasoning_content`, `contents[3].parts[0].thoughtSignature`, `input[2]`. */
  path: string;
  carrier: string;
  preview: string;
}

/** What the provider wanted back on a turn: one echo rule of its spec. */
export interface WantedCarrier {
  carrier: string;
  level: 'required' | 'recommended';
  /** Also accepted in its place (a gateway mapping `reasoning` onto reasoning_content). */
  aliases: string[];
  /** Sent: the turn holds this carrier or an alias. */
  sent: boolean;
  /** Public sources disagree on the rule: missing it is a warning, not a failure. */
  contested: boolean;
  source?: string;
}

export type TurnStatus = 'ok' | 'missing' | 'refused' | 'warned';

/** One assistant-side turn of a request's conversation: the carriers wanted back beside those sent. */
export interface TurnDiff {
  /** `messages[1]`, or `input[2..3]` for a Responses turn of several items. */
  at: string;
  role: string;
  toolCall: boolean;
  wanted: WantedCarrier[];
  sent: SentCarrier[];
  /** The request's findings that point into this turn. */
  findings: Finding[];
  /** refused/warned: a finding points here; missing: a wanted carrier is absent; else ok. */
  status: TurnStatus;
}

export interface CarrierDiff {
  /** Which list the conversation is: `messages`, `contents` or `input`; null when the body holds none. */
  list: string | null;
  turns: TurnDiff[];
  /** Reasoning the server keeps and the request names by id (`previous_response_id`). */
  byReference: string[];
}

const PREVIEW = 120;
const CONVERSATION_LISTS = ['messages', 'contents', 'input'] as const;
const ASSISTANT_ROLES = new Set(['assistant', 'model']);
const ASKING_ROLES = new Set(['user', 'system', 'developer', 'tool', 'function']);

/** A value as one short line: JSON, masked again for anything credential-shaped, cut to PREVIEW. */
function preview(value: unknown): string {
  return oneLine(
    redactText(typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? '')),
    PREVIEW,
  );
}

/** Does this turn call a tool, in any family's spelling? */
function callsATool(value: unknown, depth = 0): boolean {
  if (depth > 8) return false;
  if (Array.isArray(value)) return value.some((v) => callsATool(v, depth + 1));
  if (!isPlainObject(value)) return false;
  if (Array.isArray(value.tool_calls) && value.tool_calls.length > 0) return true;
  if (value.type === 'tool_use' || value.type === 'function_call') return true;
  if (isPlainObject(value.functionCall) || isPlainObject(value.toolUse)) return true;
  return Object.values(value).some((v) => callsATool(v, depth + 1));
}

/** The carriers in one item, found where they are (a carrier's own insides are its value, not more carriers). */
function carriersIn(item: unknown, at: string): SentCarrier[] {
  const found: SentCarrier[] = [];
  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > 32) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`, depth + 1));
      return;
    }
    if (!isPlainObject(value)) return;
    if (typeof value.type === 'string' && WIRE_CARRIER_KEYS.has(value.type)) {
      found.push({ path, carrier: value.type, preview: preview(value) });
      return;
    }
    if (value.type === 'item_reference' && typeof value.id === 'string' && value.id.startsWith('rs_')) {
      found.push({ path, carrier: 'reasoning', preview: preview(value) });
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      if (WIRE_CARRIER_KEYS.has(key)) found.push({ path: `${path}.${key}`, carrier: key, preview: preview(v) });
      else walk(v, `${path}.${key}`, depth + 1);
    }
  };
  walk(item, at, 0);
  return found;
}

interface RawTurn {
  first: number;
  last: number;
  role: string;
  items: unknown[];
}

function roleOf(item: unknown): string {
  if (!isPlainObject(item)) return '';
  if (typeof item.role === 'string') return item.role;
  return typeof item.type === 'string' ? item.type : '';
}

/**
 * The assistant-side turns of a conversation. Chat, Messages, Converse and Gemini bodies hold one message per turn;
 * a Responses `input` spells a turn as several items (reasoning, function_call, message), so consecutive items that
 * are neither asked (user, system, developer) nor a tool's output are one turn.
 */
function assistantTurns(list: string, items: unknown[]): RawTurn[] {
  const turns: RawTurn[] = [];
  items.forEach((item, i) => {
    const role = roleOf(item);
    if (list !== 'input') {
      if (ASSISTANT_ROLES.has(role)) turns.push({ first: i, last: i, role, items: [item] });
      return;
    }
    const asked = ASKING_ROLES.has(role) || role.endsWith('_output');
    if (asked) return;
    const open = turns.at(-1);
    if (open && open.last === i - 1) {
      open.last = i;
      open.items.push(item);
    } else turns.push({ first: i, last: i, role: 'assistant', items: [item] });
  });
  return turns;
}

/** Does the echo rule cover this turn (its turn kind, and the body not switching it off)? */
function covers(
  rule: EchoRule,
  body: Record<string, unknown>,
  turn: RawTurn,
  toolCall: boolean,
  lastAsk: number,
): boolean {
  if ((rule.unlessBody ?? []).some((c) => atPointer(body, c.pointer) === c.equals)) return false;
  if (rule.turns === 'tool-call-turns') return toolCall;
  if (rule.turns === 'current-turn') return turn.first > lastAsk && !toolCall;
  return true;
}

/** The list index a finding points at: the head of its `path` param (`messages.3.reasoning_content`), else `index`. */
export function findingIndex(f: Finding, list: string): number | undefined {
  const path = f.params.path;
  if (typeof path === 'string') {
    const [head, index] = path.split('.');
    if (head === list && index !== undefined && /^\d+$/.test(index)) return Number(index);
  }
  return typeof f.params.index === 'number' ? f.params.index : undefined;
}

/**
 * A request's conversation as a diff of carriers, turn by turn: what the provider's spec wants back (its echo rules)
 * beside what the request holds, with the mock's findings on the turn they point at. The values come from the log's
 * body, which serve redacted before writing; each preview is masked once more and cut short.
 */
export function carrierDiff(body: unknown, spec: ProviderSpec | undefined, findings: readonly Finding[]): CarrierDiff {
  if (!isPlainObject(body)) return { list: null, turns: [], byReference: [] };
  const byReference =
    typeof body.previous_response_id === 'string' && body.previous_response_id !== ''
      ? [`previous_response_id ${preview(body.previous_response_id)}`]
      : [];
  const list = CONVERSATION_LISTS.find((key) => Array.isArray(body[key]));
  if (!list) return { list: null, turns: [], byReference };
  const items = body[list] as unknown[];
  const lastAsk = items.reduce<number>((at, m, i) => (roleOf(m) === 'user' ? i : at), -1);
  const rules = spec?.echo ?? [];
  const turns = assistantTurns(list, items).map((turn): TurnDiff => {
    const at = turn.first === turn.last ? `${list}[${turn.first}]` : `${list}[${turn.first}..${turn.last}]`;
    const sent = turn.items.flatMap((item, k) => carriersIn(item, `${list}[${turn.first + k}]`));
    const toolCall = callsATool(turn.items);
    const held = new Set(sent.map((s) => s.carrier));
    const wanted: WantedCarrier[] = [];
    for (const rule of rules) {
      if (!covers(rule, body, turn, toolCall, lastAsk)) continue;
      const known = wanted.find((w) => w.carrier === rule.field);
      if (known) {
        // Two rules on one field (required on tool turns, recommended on all): the stronger one speaks.
        if (rule.level === 'required' && (known.level !== 'required' || known.contested)) {
          known.level = 'required';
          known.contested = rule.contested !== undefined;
        }
        continue;
      }
      const aliases = rule.aliases ?? [];
      wanted.push({
        carrier: rule.field,
        level: rule.level,
        aliases,
        sent: held.has(rule.field) || aliases.some((a) => held.has(a)),
        contested: rule.contested !== undefined,
        ...(rule.source ? { source: rule.source } : {}),
      });
    }
    const mine = findings.filter((f) => {
      const index = findingIndex(f, list);
      return index !== undefined && index >= turn.first && index <= turn.last;
    });
    const status: TurnStatus = mine.some((f) => !f.lenient)
      ? 'refused'
      : mine.length > 0
        ? 'warned'
        : wanted.some((w) => !w.sent)
          ? 'missing'
          : 'ok';
    return { at, role: turn.role, toolCall, wanted, sent, findings: mine, status };
  });
  return { list, turns, byReference };
}
