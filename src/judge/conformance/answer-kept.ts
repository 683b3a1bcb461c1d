import type { Message } from '../../shared/history/history.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/**
 * The judge's own reading of an answer's opaque reasoning: every signature, encrypted blob and
 * opaque token a provider hands out to be sent back verbatim, wherever it sits in the answer. A
 * provider that signs reasoning block by block (Claude binds each signature to its place among the
 * message's blocks) refuses the next turn when one of them is missing, or, where nothing checks,
 * loses it silently; either way the loss starts when the engine reads the answer into history, and
 * every later check only sees the history the engine kept. So the judge holds the answer against
 * the message the engine read from it.
 */

/** Keys whose string value is opaque reasoning, in every family's answer spelling. */
const OPAQUE_KEYS = new Set([
  'signature',
  'encrypted_content',
  'thoughtSignature',
  'thought_signature',
  'reasoning_opaque',
  'redactedContent',
]);
/** `data` is opaque only on a redacted block (Anthropic) or an encrypted detail (OpenRouter). */
const OPAQUE_DATA_TYPES = new Set(['redacted_thinking', 'reasoning.encrypted']);

function collect(value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (
      typeof v === 'string' &&
      v !== '' &&
      (OPAQUE_KEYS.has(key) || (key === 'data' && OPAQUE_DATA_TYPES.has(String(value.type))))
    )
      out.push(v);
    else collect(v, out);
  }
}

/**
 * Opaque strings of a JSON answer body. A streamed answer (text) gives none: a stream may replace
 * a piece it sent earlier (Copilot sends reasoning_opaque twice and the later one stands), and
 * which piece stands is each family's stream semantics, which the judge does not re-implement; the
 * stream accumulators answer for that in their own tests.
 */
export function answerOpaqueStrings(body: unknown): string[] {
  const out: string[] = [];
  if (typeof body !== 'string') collect(body, out);
  return out;
}

/**
 * The answer's opaque strings that the message read from it does not hold anywhere, byte for byte (deduplicated, in
 * answer order).
 */
export function opaqueStringsLost(answer: unknown, read: Message): string[] {
  const kept = JSON.stringify(read);
  return [...new Set(answerOpaqueStrings(answer))].filter((s) => !kept.includes(JSON.stringify(s).slice(1, -1)));
}
