import { describe, expect, it } from 'vitest';
import { readCase } from '../../tools/services/real-world-cases/recorded-traffic/check-real-traffic-case.js';
import {
  loadRealCases,
  policyForCase,
  realTrafficCasesDir,
} from '../../tools/services/real-world-cases/recorded-traffic/real-traffic-case.js';
import { checkHistory } from './load-history.js';

/**
 * The native records the families write from real provider answers (../shared/real-traffic) must
 * be ones the history schema accepts: otherwise a session saved to a file and loaded back would be
 * refused. Guards the schema against drifting from the record shapes.
 */
const dir = realTrafficCasesDir();

describe('native records read from real traffic pass the history schema', () => {
  if (dir === undefined) {
    it.skip('SKIPPED: ../shared/real-traffic/cases is not beside the repo', () => {});
    return;
  }
  const cases = loadRealCases(dir).filter(
    (c) => c.family === 'gemini' || c.family === 'openai-responses' || c.family === 'copilot',
  );
  it('has cases with native records', () => {
    const withNative = cases.filter((c) => readCase(c, policyForCase(c)).message.native !== undefined);
    expect(withNative.length).toBeGreaterThan(0);
  });
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const { message } = readCase(c, policyForCase(c));
    expect(() => checkHistory({ messages: [{ role: 'user', content: 'q' }, message] }, c.id)).not.toThrow();
  });
});
