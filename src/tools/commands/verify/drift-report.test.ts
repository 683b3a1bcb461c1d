import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { buildDriftReport, renderDriftJunit, renderDriftMarkdown } from './drift-report.js';
import type { RunOutput } from './run-verify.js';
import { SpendGuard } from './spend-guard.js';
import type { VerifyResult } from './verify-result.js';

const xsd = readFileSync(
  fileURLToPath(new URL('../../services/report/__fixtures__/jenkins-junit-10.xsd', import.meta.url)),
  'utf8',
);

const result = (r: Partial<VerifyResult>): VerifyResult => ({
  provider: 'deepseek',
  kind: 'case',
  id: 'c',
  model: 'm',
  outcome: 'compared',
  detail: '',
  requests: 1,
  ...r,
});

function run(): RunOutput {
  const guard = new SpendGuard({ maxRequests: 10, maxCost: 1, maxTimeMs: 60_000 });
  return {
    items: [],
    results: [
      result({ id: 'a', category: 'agrees', rule: 'accepted' }),
      result({
        id: 'b',
        category: 'mock-too-strict',
        rule: 'r1',
        detail: 'the mock refuses <x> & "y"',
        caseFile: 'b-live.json',
      }),
      result({ id: 'c', category: 'mock-too-lenient', rule: 'unnamed', detail: 'd', caseFile: 'c-live.json' }),
      result({
        provider: 'anthropic',
        kind: 'scenario',
        id: 's',
        call: 1,
        category: 'wording-changed',
        rule: 'r2',
        detail: 'd',
      }),
      result({
        provider: 'anthropic',
        id: 'e',
        outcome: 'error',
        detail: 'no complete answer within 5 ms (--timeout)',
      }),
      result({
        provider: 'anthropic',
        id: 'f',
        outcome: 'skipped',
        detail: 'ANTHROPIC_API_KEY is not set',
        requests: 0,
      }),
      result({ provider: 'anthropic', id: 'g', outcome: 'not-run', detail: 'stopped', requests: 0 }),
    ],
    guard,
    startedAt: '2026-12-03T00:00:00.000Z',
    finishedAt: '2026-12-03T00:01:00.000Z',
  };
}

describe('the drift report', () => {
  const report = buildDriftReport(run(), 5000);

  it('counts each result once, per provider and per rule', () => {
    expect(report.totals).toMatchObject({
      agrees: 1,
      'mock-too-strict': 1,
      'mock-too-lenient': 1,
      'wording-changed': 1,
      error: 1,
      skipped: 1,
      'not-run': 1,
    });
    expect(report.providers.find((p) => p.provider === 'deepseek')!.rules.map((r) => r.rule)).toEqual([
      'accepted',
      'r1',
      'unnamed',
    ]);
    expect(report.casesWritten).toEqual(['b-live.json', 'c-live.json']);
  });

  it('Markdown: the provider x rule table and each disagreement with its new case', () => {
    const md = renderDriftMarkdown(report);
    expect(md).toContain('| deepseek | r1 | 0 | 1 | 0 | 0 |');
    expect(md).toContain('**mock too strict** deepseek case b (rule r1)');
    expect(md).toContain('New case: `real-world/b-live.json`.');
    expect(md).toContain('No case written: unknown.');
  });

  it('JUnit: valid under the Jenkins junit-10 schema; disagreements fail, no answer errs, the rest is skipped', async () => {
    const xml = renderDriftJunit(report);
    const { errors } = await validateXML({ xml: [{ fileName: 'drift.junit.xml', contents: xml }], schema: [xsd] });
    expect(errors.map((e) => e.rawMessage)).toEqual([]);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (n) => ['testsuite', 'testcase'].includes(n),
    }).parse(xml);
    expect(doc.testsuites).toMatchObject({ tests: '7', failures: '3', errors: '1' });
    const cases = doc.testsuites.testsuite.flatMap((s: { testcase: unknown[] }) => s.testcase);
    expect(cases.filter((c: Record<string, unknown>) => c.failure)).toHaveLength(3);
    expect(cases.filter((c: Record<string, unknown>) => c.skipped)).toHaveLength(2);
  });
});
