import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readCase, realCaseProblems } from './check-real-traffic-case.js';
import { loadRealCases, policyForCase, realTrafficCasesDir } from './real-traffic-case.js';

/**
 * Real provider answers recorded by other public projects (../shared/real-traffic, beside the
 * repo, never copied in). Each case is read as the corpus README asks: signatures and blobs kept
 * verbatim and in order, nothing invented, text and tool calls kept, every part replayed where it
 * came, a stream equal to the body it completed with, and the same record however the stream's
 * bytes are cut.
 */
const dir = realTrafficCasesDir();

if (dir === undefined) {
  describe('real-traffic corpus', () => {
    it.skip('SKIPPED: ../shared/real-traffic/cases is not beside the repo, so no real case was read', () => {});
  });
} else {
  const cases = loadRealCases(dir);
  describe(`real-traffic corpus (${cases.length} cases in ${dir})`, () => {
    it('has cases to read', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
      const policy = policyForCase(c);
      expect(realCaseProblems(c, policy)).toEqual([]);
      if (c.kind === 'stream') {
        const whole = readCase(c, policy);
        // Small random pieces: up to 40 cuts, so pieces of a few bytes around each cut.
        fc.assert(
          fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (cuts) => {
            expect(readCase(c, policy, cuts)).toEqual(whole);
          }),
          { numRuns: 12 },
        );
      }
    });
  });
}
