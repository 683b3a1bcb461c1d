import type { StreamCarriers } from './stream-carriers.js';

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
