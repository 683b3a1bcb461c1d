import { describe, expect, it } from 'vitest';
import { schemaValidator } from '../../../shared/validation/validate.js';
import type { FrameworkMatrix } from './framework-matrix.js';
import type { FaultCell, FrameworkRow } from './framework-row.js';
import { buildFrameworksReport, faultsSummary, renderFrameworksMarkdown } from './frameworks-report.js';

const matrix: FrameworkMatrix = { frameworks: [], pairs: [] };
const row = (over: Partial<FrameworkRow> = {}): FrameworkRow => ({
  key: 'ai-sdk-5 × anthropic × stream',
  framework: 'ai-sdk-5',
  frameworkName: 'Vercel AI SDK 5',
  frameworkVersion: '5.0.1',
  provider: 'anthropic',
  package: '@ai-sdk/anthropic',
  packageVersion: '2.0.1',
  stream: true,
  verdict: 'pass',
  reason: '4 requests accepted, reasoning replayed',
  requests: 4,
  ...over,
});
const poisoned: FaultCell = {
  fault: 'messages-cut-mid-signature',
  outcome: 'poisoned',
  injected: '#1 POST /anthropic/v1/messages: cut after 4 of the signature’s 64 characters',
  damage: {
    request: '#2 POST /anthropic/v1/messages',
    what: 'truncated-signature',
    detail: 'a truncated signature',
  },
  reason: 'after fault messages-cut-mid-signature: a truncated signature; fix: stage signature deltas',
  requests: 2,
};
const survived: FaultCell = { fault: 'overloaded-529-mid-loop', outcome: 'survives', reason: 'finished', requests: 5 };
const gaveUp: FaultCell = {
  fault: 'messages-cut-before-signature',
  outcome: 'gave-up',
  reason: 'stopped',
  requests: 1,
};

describe('the faults column in reports/frameworks.{json,md}', () => {
  const report = buildFrameworksReport(matrix, [row({ faults: [poisoned, survived, gaveUp] }), row({ stream: false })]);

  it('counts the cells by outcome and the report validates against its schema', () => {
    expect(report.summary.faults).toEqual({ survives: 1, poisoned: 1, 'gave-up': 1, 'not-injected': 0, skipped: 0 });
    const validate = schemaValidator('frameworks-report.schema.json');
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
    const bad = JSON.parse(JSON.stringify(report)) as { rows: Array<{ faults?: Array<{ outcome: string }> }> };
    bad.rows[0]!.faults![0]!.outcome = 'recovered';
    expect(validate(bad)).toBe(false);
  });

  it('names the fault that poisoned a row, and the request that showed the damage', () => {
    expect(faultsSummary([poisoned, survived, gaveUp])).toBe(
      '✓ 1 survives · ✗ poisoned by messages-cut-mid-signature · ! 1 gave-up',
    );
    const md = renderFrameworksMarkdown(report);
    expect(md).toContain('| under faults |');
    expect(md).toContain('## Under faults');
    expect(md).toMatch(
      /\| messages-cut-mid-signature \| ✗ poisoned \| #1 POST \/anthropic\/v1\/messages: cut after 4 .*\| #2 POST \/anthropic\/v1\/messages: truncated-signature: /,
    );
    expect(md).toContain('| overloaded-529-mid-loop | ✓ survives |');
  });

  it('a report without the column (written before it) renders without one', () => {
    const none = buildFrameworksReport(matrix, [row()]);
    expect(renderFrameworksMarkdown(none)).not.toContain('## Under faults');
    expect(faultsSummary(undefined)).toBe('');
  });
});
