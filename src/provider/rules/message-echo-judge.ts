import type { Contested, EchoRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { contestedMark } from './contested-mark.js';

/** Each pointer's keys, unescaped once: the pointers come from the specs, and every request is read at them. */
const pointerKeys = new Map<string, readonly string[]>();
const MAX_KEPT_POINTERS = 4096;

function keysOf(pointer: string): readonly string[] {
  let keys = pointerKeys.get(pointer);
  if (!keys) {
    keys = pointer
      .split('/')
      .slice(1)
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (pointerKeys.size < MAX_KEPT_POINTERS) pointerKeys.set(pointer, keys);
  }
  return keys;
}

/** The value at a JSON pointer (`/thinking/type`), or undefined. */
export function atPointer(body: unknown, pointer: string): unknown {
  let at: unknown = body;
  for (const key of keysOf(pointer)) {
    if (Array.isArray(at)) at = at[Number(key)];
    else if (isPlainObject(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/** Readable reasoning in a field: a non-empty string, or reasoning_details items with text or a summary. */
function readable(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value))
    return value.some(
      (d) =>
        isPlainObject(d) &&
        ((typeof d.text === 'string' && d.text !== '') || (typeof d.summary === 'string' && d.summary !== '')),
    );
  return false;
}

function contestedFields(contested: Contested | undefined, own: string | undefined): Partial<Finding> {
  return contested ? contestedMark(contested, own ? [own] : []) : {};
}

/**
 * Findings for one echo rule over chat messages. `indexOf` maps a chat index to the index the
 * provider reports (a gateway's upstream may number messages differently); `aliases` on the rule
 * (a gateway mapping `reasoning` onto reasoning_content) also satisfy it.
 */
export function echoRuleFindings(
  rule: EchoRule,
  body: Record<string, unknown>,
  messages: readonly unknown[],
  indexOf: (chatIndex: number) => number = (i) => i,
): Finding[] {
  if (rule.level !== 'required' || !rule.rejection) return [];
  if ((rule.unlessBody ?? []).some((c) => atPointer(body, c.pointer) === c.equals)) return [];
  const lastUser = messages.reduce<number>((at, m, i) => (isPlainObject(m) && m.role === 'user' ? i : at), -1);
  const findings: Finding[] = [];
  messages.forEach((message, index) => {
    if (!isPlainObject(message) || message.role !== 'assistant') return;
    const toolTurn = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
    if (rule.turns === 'tool-call-turns' && !toolTurn) return;
    // current-turn covers what the tool-call rule does not: the turn's plain (final) answers.
    if (rule.turns === 'current-turn' && (index < lastUser || toolTurn)) return;
    const value = message[rule.field];
    const empty = value === '';
    const present =
      (typeof value === 'string' && (rule.allowEmpty === true || !empty)) ||
      (rule.aliases ?? []).some((alias) => readable(message[alias]));
    if (present) return;
    const at = indexOf(index);
    findings.push({
      rule: 'must-echo',
      rejection: rule.rejection!,
      params: { index: at, field: rule.field, role: 'assistant', path: `messages.${at}.${rule.field}` },
      detail: `assistant message ${index}${toolTurn ? ' (tool call)' : rule.turns === 'current-turn' ? ' (current turn, no tool call)' : ''} has no ${rule.field}${empty ? ' (empty string)' : ''}`,
      ...contestedFields(rule.contested ?? (empty ? rule.emptyContested : undefined), rule.source),
    });
  });
  return findings;
}

/**
 * Required echoes on a chat-shaped body (`messages[]`): DeepSeek, Kimi and MiMo answer 400 when a
 * tool-call assistant turn comes back without its reasoning_content. Recommended echoes are not a
 * provider error, so they are judged by the conformance runner, which knows what history held.
 * Uncontested findings come first: the mock answers with the first, and a request that breaks an
 * undisputed rule should hear about that one.
 */
export function judgeMessageEchoes(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return [];
  const messages: unknown[] = body.messages;
  const findings = spec.echo.flatMap((rule) => echoRuleFindings(rule, body, messages));
  return [...findings.filter((f) => !f.contested), ...findings.filter((f) => f.contested)];
}
