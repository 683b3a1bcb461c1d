import type { History, Message, StandardCarrierField } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { selectCarriers } from '../policy/select-carriers.js';

/** Every message costs a little framing on the wire (role, separators) whatever it holds. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
const CHARS_PER_TOKEN = 4;

const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

/**
 * The length of `value` as compact JSON, escapes aside (strings count their characters and two
 * quotes). Walks instead of stringifying: pricing a 100k-turn history must not allocate a copy of it.
 */
export function jsonSize(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  if (value === null || value === undefined) return 4;
  if (Array.isArray(value)) {
    let n = 2 + Math.max(0, value.length - 1);
    for (const item of value) n += jsonSize(item);
    return n;
  }
  let n = 2;
  let first = true;
  for (const key in value as Record<string, unknown>) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    n += (first ? 0 : 1) + key.length + 3 + jsonSize(v);
    first = false;
  }
  return n;
}

function contentChars(message: Message): number {
  const { content } = message;
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content))
    return content.reduce((n, part) => n + (typeof part.text === 'string' ? part.text.length : jsonSize(part)), 0);
  return 0;
}

/**
 * THE pricing of one message, used by the preflight estimate and the compaction tail walk alike: two
 * pricings that disagree make compaction loop (it thinks it made room, the preflight does not).
 *
 * Carriers are priced as they would travel: with a route policy, exactly what selectCarriers lets
 * through (the same predicate the wire uses: a strict route pays nothing for reasoning, a must-echo
 * pad costs one character); without one, every stored carrier. Opaque carriers (reasoning_details,
 * signatures, encrypted blobs, native records) are priced by their serialized size (jsonSize), the
 * same way in both callers: unlike the seed, which prices them 0, because they do travel and fill
 * the request.
 */
export function priceMessage(message: Message, policy?: RoutePolicy, omit?: ReadonlySet<StandardCarrierField>): number {
  let chars = contentChars(message);
  if (message.name !== undefined) chars += message.name.length;
  if (message.tool_call_id !== undefined) chars += message.tool_call_id.length;
  if (message.tool_calls !== undefined) chars += jsonSize(message.tool_calls);
  if (policy) {
    const sent = selectCarriers(message, policy, omit);
    chars += (sent.reasoning_content?.length ?? 0) + (sent.reasoning?.length ?? 0);
    if (sent.reasoning_details) chars += jsonSize(sent.reasoning_details);
    if (sent.native) chars += jsonSize(sent.native);
  } else {
    chars += (message.reasoning_content?.length ?? 0) + (message.reasoning?.length ?? 0);
    if (message.reasoning_details) chars += jsonSize(message.reasoning_details);
    if (message.native) chars += jsonSize(message.native);
  }
  return MESSAGE_OVERHEAD_TOKENS + tokens(chars);
}

export interface PricingOptions {
  policy?: RoutePolicy;
  omit?: ReadonlySet<StandardCarrierField>;
}

export function estimateTokens(history: History, options: PricingOptions = {}): number {
  let total = 0;
  for (const message of history.messages) total += priceMessage(message, options.policy, options.omit);
  return total;
}

/** The preflight: does this history need compacting before it is sent? */
export function needsCompaction(history: History, budget: number, options: PricingOptions = {}): boolean {
  return estimateTokens(history, options) > budget;
}
