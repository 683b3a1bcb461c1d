import { describe, expect, it } from 'vitest';
import { formatMatrix, formatWarnings } from './format-matrix.js';
import type { CellVerdict } from '../../../judge/conformance/verdict.js';
import { sampleRun } from './sample-run.test-helper.js';
import { STATUS_SYMBOL } from './status-symbols.js';

/** The matrix `check` prints explains itself: a newcomer reads rows, columns and symbols off the output alone. */
describe('formatMatrix', () => {
  it('ends with a legend naming rows, columns and every symbol, then the scenario key', () => {
    const run = sampleRun();
    const text = formatMatrix(run);
    const legend = text.slice(text.indexOf('How to read it:'));
    expect(legend).toMatch(/a row is a provider target .* and the route \(tier\)/);
    for (const [status, symbol] of Object.entries(STATUS_SYMBOL)) {
      expect(legend, status).toContain(
        `${symbol} ${status === 'warn' ? 'warning' : status === 'n/a' ? 'not applicable' : status}`,
      );
    }
    const scenarios = [...new Set(run.cells.map((c) => c.scenario))];
    expect(legend).toContain(scenarios.map((s, i) => `S${i + 1} ${s}`).join('\n'));
  });
});

describe('formatWarnings', () => {
  it('lists each warned check under its scenario run, and nothing for runs without warnings', () => {
    const cell = (scenario: string, status: 'warn' | 'pass', detail: string): CellVerdict => ({
      scenario,
      target: 'deepseek',
      route: 'deepseek',
      tier: 'must-echo',
      family: 'openai-chat',
      status,
      checks: [
        { behaviour: 'must-echo', status, detail },
        { behaviour: 'provider-accepts', status: 'pass', detail: 'accepted' },
      ],
      exchanges: [],
    });
    expect(formatWarnings([cell('a', 'pass', 'fine'), cell('b', 'warn', 'plain turn padded: decision 0002')])).toBe(
      '! deepseek × b (route deepseek, must-echo)\n    [must-echo] plain turn padded: decision 0002',
    );
    expect(formatWarnings([cell('a', 'pass', 'fine')])).toBe('');
  });
});
