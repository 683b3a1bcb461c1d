import { describe, expect, it } from 'vitest';
import { failedFigure, type BenchFigure } from './figure.js';
import { formatBenchTable } from './format-table.js';

const figure = (over: Partial<BenchFigure>): BenchFigure => ({
  id: 'x',
  figure: 'x',
  measured: 1,
  unit: 'x',
  goal: '<= 3x',
  met: true,
  details: {},
  ...over,
});

describe('formatBenchTable', () => {
  it('prints one row per figure with its goal and met / MISSED, never dropping a missed one', () => {
    const table = formatBenchTable([
      figure({ id: 'replay-engine/gemini', measured: 3.91, met: false }),
      figure({ id: 'check/peak-rss', measured: 139.7, unit: 'MB', goal: '< 300 MB' }),
      failedFigure(
        'session-scaling',
        'session store',
        '< 12x per 10x',
        new Error('bench/session-scaling.ts does not exist yet'),
      ),
    ]);
    const rows = table.split('\n').slice(2);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(/^replay-engine\/gemini\s+3\.91x\s+<= 3x\s+MISSED$/);
    expect(rows[1]).toMatch(/^check\/peak-rss\s+139\.7 MB\s+< 300 MB\s+met$/);
    expect(rows[2]).toMatch(/not run: bench\/session-scaling\.ts does not exist yet\s+< 12x per 10x\s+MISSED$/);
  });
});
