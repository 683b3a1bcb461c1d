import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { carrierDifference } from '../../judge/retention/retention-checks.js';
import {
  aHistory,
  aRoutePolicy,
  PROPERTY_RUNS,
  PROPERTY_TIMEOUT_MS,
} from '../../../test/helpers/history-arbitraries.test-helper.js';
import { isCheckpoint, lastRealUserIndex } from './checkpoint.js';
import { compress, droppedInputs } from './compress.js';
import { estimateTokens, needsCompaction } from './estimate-tokens.js';

const aBudgetFraction = fc.double({ min: 0.02, max: 1.3, noNaN: true });

describe('compress (property)', () => {
  test(
    'keeps retained carriers byte for byte, fits the budget or says why, and never needs a second pass',
    () => {
      fc.assert(
        fc.property(
          aHistory,
          fc.option(aRoutePolicy, { nil: undefined }),
          aBudgetFraction,
          (history, policy, fraction) => {
            const snapshot = JSON.stringify(history);
            const before = estimateTokens(history, { policy });
            const budget = Math.max(1, Math.floor(before * fraction));
            const r = compress(history, budget, { policy });

            expect(JSON.stringify(history)).toBe(snapshot);
            expect(r.estimateBefore).toBe(before);
            expect(r.estimateAfter).toBe(estimateTokens(r.history, { policy }));
            if (!r.changed) expect(r.history).toBe(history);

            const kept = r.kept.filter((k): k is number => k !== null);
            expect(kept).toEqual([...kept].sort((a, b) => a - b));
            for (const [j, from] of r.kept.entries()) {
              if (from === null) {
                expect(isCheckpoint(r.history.messages[j]!)).toBe(true);
                continue;
              }
              const original = history.messages[from]!;
              const now = r.history.messages[j]!;
              expect(carrierDifference(original, now)).toBeNull();
              if (now.role !== 'tool' && !isCheckpoint(original)) expect(now).toBe(original);
            }

            // Dropped: the summarized head, or a checkpoint shadowed before the last user message. Never the live turn.
            const liveStart = lastRealUserIndex(history.messages);
            for (const i of r.dropped) {
              if (liveStart >= 0 && i >= liveStart)
                throw new Error(`dropped message ${i} of the live turn (from ${liveStart})`);
              if (
                history.messages[i]!.role === 'system' &&
                history.messages.slice(0, i).every((m) => m.role === 'system')
              )
                throw new Error('dropped the system prompt');
            }

            if (r.status === 'over-budget') {
              expect(r.reason).toBeTruthy();
              const again = compress(r.history, budget, { policy });
              expect(again.estimateAfter).toBeLessThanOrEqual(r.estimateAfter);
            } else {
              expect(r.estimateAfter).toBeLessThanOrEqual(budget);
              expect(needsCompaction(r.history, budget, { policy })).toBe(false);
              expect(compress(r.history, budget, { policy }).status).toBe('unchanged');
            }
          },
        ),
        { numRuns: PROPERTY_RUNS },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  test('droppedInputs: exactly the inputs kept leaves out, ascending, in or out of order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }).chain((inputs) =>
          fc.tuple(
            fc.constant(inputs),
            fc.array(fc.option(fc.integer({ min: 0, max: Math.max(0, inputs - 1) }), { nil: null }), {
              maxLength: inputs,
            }),
            fc.boolean(),
          ),
        ),
        ([inputs, raw, sorted]) => {
          // Kept inputs never repeat; `sorted` makes the walk's ascending case, the rest exercise the marks.
          const seen = new Set<number>();
          const kept = raw
            .filter((k) => inputs > 0 || k === null)
            .filter((k) => k === null || (!seen.has(k) && !!seen.add(k)));
          if (sorted) {
            const numbers = kept.filter((k): k is number => k !== null).sort((a, b) => a - b);
            let n = 0;
            for (let j = 0; j < kept.length; j++) if (kept[j] !== null) kept[j] = numbers[n++]!;
          }
          const keptSet = new Set(kept.filter((k): k is number => k !== null));
          const expected = Array.from({ length: inputs }, (_, i) => i).filter((i) => !keptSet.has(i));
          const r = droppedInputs(kept, inputs);
          expect(r.dropped).toEqual(expected);
          expect(r.inOrder).toBe(kept.length === inputs && kept.every((k, j) => k === j));
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
