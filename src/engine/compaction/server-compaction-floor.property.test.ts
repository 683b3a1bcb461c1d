import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  aHistory,
  aRoutePolicy,
  PROPERTY_RUNS,
  PROPERTY_TIMEOUT_MS,
} from '../../../test/helpers/history-arbitraries.test-helper.js';
import type { History, Message } from '../../shared/history/history.js';
import { compress } from './compress.js';
import { estimateTokens } from './estimate-tokens.js';

/** An assistant turn holding a provider's compaction carrier, in either record shape the families write. */
const aServerCompactionTurn: fc.Arbitrary<Message> = fc
  .record({
    shape: fc.constantFrom('anthropic', 'openai-responses', 'xai-responses'),
    summary: fc.string({ minLength: 1, maxLength: 400 }),
    blob: fc.base64String({ minLength: 4, maxLength: 600 }),
    text: fc.string({ maxLength: 200 }),
  })
  .map(({ shape, summary, blob, text }): Message => {
    const native =
      shape === 'anthropic'
        ? {
            route: shape,
            fields: {
              blocks: [
                { kind: 'block', block: { type: 'compaction', content: summary, encrypted_content: blob } },
                { kind: 'text', chars: text.length },
              ],
            },
          }
        : {
            route: shape,
            fields: {
              items: [
                { kind: 'item', item: { id: 'cmp_1', type: 'compaction', encrypted_content: blob } },
                { kind: 'message', parts: [{ chars: text.length }] },
              ],
            },
          };
    return { role: 'assistant', content: text, native };
  });

/** A history with compaction turns spliced in at arbitrary places; the newest is the one the engine must keep. */
const aHistoryWithServerCompaction = fc
  .tuple(aHistory, fc.array(fc.tuple(aServerCompactionTurn, fc.nat()), { minLength: 1, maxLength: 3 }))
  .map(([history, turns]): { history: History; newest: Message } => {
    const messages = [...history.messages];
    let newest: Message | undefined;
    let newestAt = -1;
    for (const [turn, at] of turns) {
      const i = at % (messages.length + 1);
      messages.splice(i, 0, turn);
      if (newestAt >= i) newestAt += 1;
      if (i >= newestAt) {
        newest = turn;
        newestAt = i;
      }
    }
    return { history: { messages }, newest: newest! };
  });

const aBudgetFraction = fc.double({ min: 0.02, max: 1.3, noNaN: true });

describe('the engine compaction keeps the provider compaction carrier (property)', () => {
  test(
    'the newest compaction turn is never summarized: it is kept, the same object, whatever the budget',
    () => {
      fc.assert(
        fc.property(
          aHistoryWithServerCompaction,
          fc.option(aRoutePolicy, { nil: undefined }),
          aBudgetFraction,
          ({ history, newest }, policy, fraction) => {
            const budget = Math.max(1, Math.floor(estimateTokens(history, { policy }) * fraction));
            const r = compress(history, budget, { policy });
            const at = history.messages.lastIndexOf(newest);
            expect(r.dropped).not.toContain(at);
            expect(r.history.messages).toContain(newest);
            expect(JSON.stringify(r.history.messages.find((m) => m === newest)!.native)).toBe(
              JSON.stringify(newest.native),
            );
          },
        ),
        {
          numRuns: PROPERTY_RUNS,
        },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
