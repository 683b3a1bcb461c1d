import type { History, Message, StandardCarrierField } from '../model/history.js';
import type { RoutePolicy } from '../routes/route-table.js';
import { selectCarriers } from '../replay/select-carriers.js';

/** Every message costs a little framing on the wire (role, separators) whatever it holds. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
const CHARS_PER_TOKEN = 4;

const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

function contentChars(message: Message): number {
  const { content } = message;
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content)) return content.reduce((n, part) => n + (typeof part.text === 'string' ? part.text.length : JSON.stringify(part).length), 0);
  return 0;
}

/**
 * THE pricing of one message, used by the preflight estimate and the compaction tail walk alike (a
 * seed bug came from two pricings disagreeing: compaction thought it had made room, the preflight
 * disagreed, and it compacted again forever).
 *
 * Carriers are priced as they would travel: with a route policy, exactly what selectCarriers lets
 * through (the same predicate the wire uses: a strict route pays nothing for reasoning, a must-echo
 * pad costs one character); without one, every stored carrier. Opaque carriers (reasoning_details,
 * signatures, encrypted blobs, native records) are priced by their serialized size, the same way in
 * both callers: unlike the seed, which prices them 0, because they do travel and fill the request.
 */
export function priceMessage(message: Message, policy?: RoutePolicy, omit?: ReadonlySet<StandardCarrierField>): number {
  let chars = contentChars(message);
  if (message.name !== undefined) chars += message.name.length;
  if (message.tool_call_id !== undefined) chars += message.tool_call_id.length;
  if (message.tool_calls !== undefined) chars += JSON.stringify(message.tool_calls).length;
  if (policy) {
    const sent = selectCarriers(message, policy, omit);
    chars += (sent.reasoning_content?.length ?? 0) + (sent.reasoning?.length ?? 0);
    if (sent.reasoning_details) chars += JSON.stringify(sent.reasoning_details).length;
    if (sent.native) chars += JSON.stringify(sent.native).length;
  } else {
    chars += (message.reasoning_content?.length ?? 0) + (message.reasoning?.length ?? 0);
    if (message.reasoning_details) chars += JSON.stringify(message.reasoning_details).length;
    if (message.native) chars += JSON.stringify(message.native).length;
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
