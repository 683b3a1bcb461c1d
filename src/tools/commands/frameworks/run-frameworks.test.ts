import { describe, expect, it } from 'vitest';
import type { FaultCell, FrameworkRow } from '../../services/framework-results/framework-row.js';
import type { Framework } from '../../services/framework-results/framework-matrix.js';
import type { FrameworkRun } from './framework-runs.js';
import { withFaultCells } from './run-frameworks.js';

const framework: Framework = {
  id: 'ai-sdk-5',
  name: 'Vercel AI SDK 5',
  package: 'ai',
  language: 'node',
  agent: ['a.mjs'],
  providers: [{ provider: 'anthropic', package: '@ai-sdk/anthropic' }],
};
const run = (stream: boolean, fault?: string): FrameworkRun => ({
  key: `${stream}${fault ?? ''}`,
  framework,
  provider: framework.providers[0]!,
  stream,
  ...(fault ? { fault } : {}),
});
const row = (stream: boolean): FrameworkRow => ({
  key: String(stream),
  framework: 'ai-sdk-5',
  frameworkName: 'Vercel AI SDK 5',
  frameworkVersion: '5',
  provider: 'anthropic',
  package: '@ai-sdk/anthropic',
  packageVersion: '2',
  stream,
  verdict: 'pass',
  reason: '',
  requests: 1,
});
const cell = (fault: string): FaultCell => ({ fault, outcome: 'gave-up', reason: '', requests: 1 });

describe('withFaultCells: the faults column joined to its rows', () => {
  it('each cell goes to the streamed row of its framework × provider, in run order; fault runs are no rows', () => {
    const runs = [run(false), run(true), run(true, 'a'), run(true, 'b')];
    const rows = withFaultCells(runs, [
      { row: row(false) },
      { row: row(true) },
      { cell: cell('a') },
      { cell: cell('b') },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.faults).toBeUndefined();
    expect(rows[1]!.faults?.map((c) => c.fault)).toEqual(['a', 'b']);
  });

  it('without a streamed row (npm test’s fast subset) the cells go to the other', () => {
    const rows = withFaultCells([run(false), run(true, 'a')], [{ row: row(false) }, { cell: cell('a') }]);
    expect(rows[0]!.faults?.map((c) => c.fault)).toEqual(['a']);
  });

  it('a poisoned cell on a row that fails without the fault says so', () => {
    const failing = { ...row(true), verdict: 'fail' as const, rule: 'signatures-verbatim' };
    const poisoned: FaultCell = { ...cell('a'), outcome: 'poisoned', reason: 'dropped' };
    const [r] = withFaultCells([run(true), run(true, 'a')], [{ row: failing }, { cell: poisoned }]);
    expect(r!.faults![0]!.reason).toBe('dropped (this row fails without the fault too: signatures-verbatim)');
    const [clean] = withFaultCells([run(true), run(true, 'a')], [{ row: row(true) }, { cell: poisoned }]);
    expect(clean!.faults![0]!.reason).toBe('dropped');
  });
});
