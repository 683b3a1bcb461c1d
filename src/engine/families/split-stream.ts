import type { ParsedAnswer } from './parsed-answer.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { StreamCarriers } from './stream-carriers.js';
import { StreamCarrierError } from '../../shared/errors/stream-carrier-error.js';
import { InvariantError } from '../../shared/errors/invariant-error.js';

/**
 * Feeds SSE text to an accumulator cut at the given offsets (taken modulo the text length): how a
 * network hands a stream over is arbitrary, so property tests drive every family through this.
 */
export function feedSplit(carriers: StreamCarriers, text: string, cuts: readonly number[]): StreamCarriers {
  let at = 0;
  for (const cut of [...cuts].map((c) => c % (text.length + 1)).sort((a, b) => a - b)) {
    carriers.feed(text.slice(at, cut));
    at = cut;
  }
  carriers.feed(text.slice(at));
  return carriers;
}

/**
 * Feeds a stream that must break (raw text, or parsed events) and returns the error `end()` raises;
 * a stream that reads cleanly fails the test instead of passing it.
 */
export function streamFailure(
  carriers: StreamCarriers,
  input: string | readonly SseEvent[],
): StreamCarrierError<ParsedAnswer> {
  if (typeof input === 'string') carriers.feed(input);
  else for (const event of input) carriers.acceptEvent(event);
  try {
    carriers.end();
  } catch (error) {
    if (error instanceof StreamCarrierError) return error as StreamCarrierError<ParsedAnswer>;
    throw error;
  }
  throw new InvariantError('expected the stream to fail');
}
