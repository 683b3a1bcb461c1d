import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { aggregateStatus } from '../../../judge/conformance/verdict.js';
import { buildCompatibilityReport, decisionsOf, displayPath } from './build-compatibility-report.js';
import { sampleRun } from './sample-run.test-helper.js';

describe('buildCompatibilityReport', () => {
  const report = buildCompatibilityReport(sampleRun(), {
    routeOrder: ['mistral', 'deepseek', 'openrouter'],
    root: '/project',
  });
  const cell = (route: string, behaviour: string) =>
    report.routes.find((r) => r.route === route)!.matrix.find((m) => m.behaviour === behaviour)!;

  it('orders rows by the route table and columns by BEHAVIOURS', () => {
    expect(report.routes.map((r) => r.route)).toEqual(['mistral', 'deepseek', 'openrouter']);
    expect(report.routes[0]!.matrix.map((m) => m.behaviour)).toEqual(report.behaviours);
  });

  it('fails a route x behaviour cell when one scenario failed it, even if another passed', () => {
    const mustEcho = cell('deepseek', 'must-echo');
    expect(mustEcho.status).toBe('fail');
    expect(decisionsOf(report, 'deepseek', mustEcho).map((d) => [d.scenario, d.status])).toEqual([
      ['tool-call-with-reasoning', 'pass'],
      ['tool-call-without-stored-reasoning', 'fail'],
    ]);
  });

  it('passes when some passed and none failed, n/a when only n/a or nothing ran', () => {
    expect(cell('openrouter', 'signatures-verbatim').status).toBe('pass');
    expect(cell('mistral', 'must-echo').status).toBe('n/a');
    expect(cell('mistral', 'survives-resume')).toEqual({ behaviour: 'survives-resume', status: 'n/a', checks: 0 });
  });

  it('counts cells and scenario runs, gives each route its verdict and lists provenance per route', () => {
    // One cell per route and behaviour: 3 routes; 7 of them exercised.
    const cells = 3 * report.behaviours.length;
    expect(report.summary.cells).toEqual({ total: cells, pass: 5, warn: 0, fail: 2, na: cells - 7 });
    expect(report.summary.runs).toEqual({ total: 5, pass: 4, warn: 0, fail: 1, na: 0 });
    expect(report.summary.verdict).toBe('fail');
    expect(report.routes.map((r) => [r.route, r.status])).toEqual([
      ['mistral', 'pass'],
      ['deepseek', 'fail'],
      ['openrouter', 'pass'],
    ]);
    expect(report.routes.find((r) => r.route === 'openrouter')!.provenance).toEqual({
      recorded: 0,
      synthesized: 1,
      imported: 0,
      none: 1,
    });
    expect(report.routes.find((r) => r.route === 'openrouter')!.providers).toEqual(['openrouter', 'openrouter-eu']);
  });

  it("stores every check once: a cell's checks are found in the runs, never copied into the matrix", () => {
    const checks = report.runs.reduce((n, r) => n + r.checks.length, 0);
    const referred = report.routes.reduce(
      (n, r) => n + r.matrix.reduce((k, m) => k + decisionsOf(report, r.route, m).length, 0),
      0,
    );
    expect(referred).toBe(checks);
    expect(report.routes.reduce((n, r) => n + r.matrix.reduce((k, m) => k + m.checks, 0), 0)).toBe(checks);
    expect(JSON.stringify(report.routes)).not.toContain('reasoning_content missing');
  });

  it('warns, without failing, when the worst check is a warning', () => {
    const run = sampleRun();
    run.cells = run.cells.filter((c) => c.status === 'pass');
    run.cells[0]!.checks.push({ behaviour: 'fallback-recovers', status: 'warn', detail: 'one extra round trip' });
    const warned = buildCompatibilityReport(run, { root: '/project' });
    expect(warned.summary.verdict).toBe('warn');
    expect(warned.summary.cells.warn).toBe(1);
    expect(warned.routes.find((r) => r.route === run.cells[0]!.route)!.status).toBe('warn');
  });

  it('leaves timing out, so runs that differ only in time give equal reports', () => {
    const later = { ...sampleRun(), startedAt: '2030-01-01T00:00:00.000Z', durationMs: 99 };
    const shuffled = { ...later, cells: [...later.cells].reverse() };
    expect(buildCompatibilityReport(shuffled, { root: '/project' })).toEqual(
      buildCompatibilityReport(sampleRun(), { root: '/project' }),
    );
    expect(JSON.stringify(report)).not.toMatch(/startedAt|durationMs|2026-12-02/);
  });

  it('writes project paths relative to the project root', () => {
    expect(displayPath('/project/specs/routes.json', '/project')).toBe('specs/routes.json');
    expect(displayPath('/elsewhere/routes.json', '/project')).toBe('/elsewhere/routes.json');
  });
});

describe('aggregateStatus', () => {
  const status = fc.constantFrom('pass' as const, 'warn' as const, 'fail' as const, 'n/a' as const);
  test('fail iff any fail; then warn; pass iff some pass and nothing worse; otherwise n/a', () => {
    fc.assert(
      fc.property(fc.array(status), (statuses) => {
        const result = aggregateStatus(statuses);
        if (statuses.includes('fail')) expect(result).toBe('fail');
        else if (statuses.includes('warn')) expect(result).toBe('warn');
        else if (statuses.includes('pass')) expect(result).toBe('pass');
        else expect(result).toBe('n/a');
        // Order never matters.
        expect(aggregateStatus([...statuses].reverse())).toBe(result);
      }),
    );
  });
});
