import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';

/** Absent, null, "" or []: what providers mean by "empty" when they refuse a message with nothing in it. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

export function roleOf(message: unknown): string | undefined {
  return isPlainObject(message) && typeof message.role === 'string' ? message.role : undefined;
}

export function appliesTo(roles: readonly string[] | undefined, role: string | undefined): boolean {
  return roles === undefined || (role !== undefined && roles.includes(role));
}

/**
 * Every value at a dotted path (`tool_calls.*.function.arguments` in a message, `messages.*.reasoning` in a body),
 * with the keys that reach it: `*` is any array index or object key. Message rules and forbidden fields both read it.
 */
export function valuesAt(
  value: unknown,
  segments: readonly string[],
  at: string[] = [],
): Array<{ at: string[]; value: unknown }> {
  const out: Array<{ at: string[]; value: unknown }> = [];
  // One path stack, copied only for a value found: every request is read at every rule's path, and most paths lead
  // nowhere in most bodies.
  const path = [...at];
  const walk = (current: unknown, i: number): void => {
    if (i === segments.length) {
      out.push({ at: [...path], value: current });
      return;
    }
    const head = segments[i]!;
    if (head === '*') {
      if (Array.isArray(current)) {
        for (let k = 0; k < current.length; k++) {
          path.push(String(k));
          walk(current[k], i + 1);
          path.pop();
        }
      } else if (isPlainObject(current)) {
        for (const key of Object.keys(current)) {
          path.push(key);
          walk(current[key], i + 1);
          path.pop();
        }
      }
      return;
    }
    const next = Array.isArray(current)
      ? isIndex(head)
        ? current[Number(head)]
        : NOTHING
      : isPlainObject(current) && head in current
        ? current[head]
        : NOTHING;
    if (next === NOTHING) return;
    path.push(head);
    walk(next, i + 1);
    path.pop();
  };
  walk(value, 0);
  return out;
}

/** No value at a segment (distinct from a value that is undefined). */
const NOTHING: unique symbol = Symbol('nothing');
const isIndex = (segment: string) => /^\d+$/.test(segment);

/** The segments of a dotted path; the empty path is the value itself. */
export function segmentsOf(path: string | undefined): string[] {
  return path === undefined || path === '' ? [] : path.split('.');
}

/**
 * Whether a content block is of a kind: Anthropic and OpenAI name it in `type` (`tool_result`), Bedrock and Gemini by
 * the one member it holds (`toolResult`, `functionCall`).
 */
export function isKind(block: unknown, kind: string): boolean {
  return isPlainObject(block) && (block.type === kind || (block.type === undefined && kind in block));
}

export function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function finding(rule: MessageRule, params: Finding['params'], detail: string): Finding {
  return { rule: rule.rule ?? 'provider-accepts', rejection: rule.rejection, params, detail };
}
