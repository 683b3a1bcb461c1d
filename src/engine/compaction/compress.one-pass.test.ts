import { describe, expect, it, vi } from 'vitest';
import type { History, Message } from '../../shared/history/history.js';
import { compress } from './compress.js';
import * as pricing from './estimate-tokens.js';

// Counts every pricing compress does: compaction must price each input message once (a repricing
// per candidate prefix or per kept message made it quadratic without any test noticing).
vi.mock('./estimate-tokens.js', async (importOriginal) => {
  const original = await importOriginal<typeof pricing>();
  return { ...original, priceMessage: vi.fn(original.priceMessage) };
});

const priced = vi.mocked(pricing.priceMessage);

function toolSession(exchanges: number, toolOutput = 'ok'): History {
  const messages: Message[] = [{ role: 'system', content: 'be brief' }];
  for (let n = 0; n < exchanges; n++) {
    messages.push(
      { role: 'user', content: `step ${n}` },
      {
        role: 'assistant',
        content: null,
        reasoning_content: `thinking ${n} `.repeat(10),
        tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'run', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: `c${n}`, content: toolOutput },
      { role: 'assistant', content: `done ${n}` },
    );
  }
  return { messages };
}

describe('compress prices each message once', () => {
  it.each([50, 500])('a tail walk over %i exchanges: one pricing per message, plus the new checkpoint', (exchanges) => {
    const history = toolSession(exchanges);
    const budget = Math.floor(pricing.estimateTokens(history) / 2);
    priced.mockClear();
    const r = compress(history, budget);
    expect(r.status).toBe('compacted');
    expect(r.salvaged).toBe(false);
    // n input messages, and the checkpoint priced where the result is checked against the input and the budget.
    expect(priced.mock.calls.length).toBeLessThanOrEqual(history.messages.length + 2);
  });

  it('with salvage: a bounded number of pricings per kept message', () => {
    // One live turn with long tool outputs: the tail walk cannot reach the budget, salvage clears them.
    const history = toolSession(1);
    const live: Message[] = [];
    for (let n = 0; n < 200; n++) {
      live.push(
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: `t${n}`, type: 'function', function: { name: 'cat', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: `t${n}`, content: 'x'.repeat(2000) },
      );
    }
    history.messages.push({ role: 'user', content: 'now the big one' }, ...live);
    priced.mockClear();
    const r = compress(history, Math.floor(pricing.estimateTokens(history) / 4));
    expect(r.salvaged).toBe(true);
    expect(priced.mock.calls.length).toBeLessThanOrEqual(history.messages.length + 3 * r.history.messages.length + 2);
  });
});

/** The history's messages behind a Proxy that counts every read of a message by its index. */
function countingReads(history: History): { history: History; reads: () => number } {
  let reads = 0;
  const messages = new Proxy(history.messages, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { history: { messages }, reads: () => reads };
}

describe('compress reads each message a bounded number of times', () => {
  // Reads of the input, not time: pricing reads every message once, building the result reads the
  // kept tail once more, and the built-in summary reads only the head messages it writes lines for.
  // A copy of the replaced head (a slice for the summary), a second walk or a search per message
  // adds reads proportional to the history, and this fails.
  const readsFor = (exchanges: number) => {
    const session = toolSession(exchanges, 'tool output '.repeat(20));
    const budget = Math.floor(pricing.estimateTokens(session) / 2);
    const { history, reads } = countingReads(session);
    const r = compress(history, budget, { summaryTokens: 40 });
    return { r, reads: reads(), n: history.messages.length };
  };

  it.each([100, 1000])(
    '%i exchanges: input messages read once, the kept ones twice, the summary a few',
    (exchanges) => {
      const { r, reads, n } = readsFor(exchanges);
      expect(r.status).toBe('compacted');
      const keptInputs = r.kept.filter((k) => k !== null).length;
      expect(keptInputs).toBeLessThan(n);
      // 40 summary tokens leave ~100 characters: a header and a line or two, a handful of head messages.
      expect(reads).toBeLessThanOrEqual(n + keptInputs + 16);
    },
  );

  it('grows as the history does: 10x the exchanges, at most ~10x the reads', () => {
    const small = readsFor(200).reads;
    const large = readsFor(2000).reads;
    expect(large / small).toBeLessThan(10.5);
  });
});
