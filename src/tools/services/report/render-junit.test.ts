import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import type { CellVerdict, ConformanceRun } from '../../../judge/conformance/verdict.js';
import { BEHAVIOURS } from '../../../judge/conformance/verdict.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import { renderJunit } from './render-junit.js';
import { sampleRun } from './sample-run.test-helper.js';

const xsd = readFileSync(fileURLToPath(new URL('./__fixtures__/jenkins-junit-10.xsd', import.meta.url)), 'utf8');

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [xsd] });
  return result.errors.map((e) => e.rawMessage);
}

const parse = (xml: string) =>
  new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase'].includes(name),
  }).parse(xml);

describe('renderJunit', () => {
  it('is valid under the Jenkins junit-10 schema, untested routes and escapes included', async () => {
    const report = buildCompatibilityReport(sampleRun(), {
      routeOrder: ['mistral', 'deepseek', 'openrouter'],
      root: '/project',
      untestedRoutes: ['lonely'],
    });
    expect(await schemaErrors(renderJunit(report))).toEqual([]);
  });

  it('the schema check itself refuses what the old writer emitted: `skipped` on <testsuites>', async () => {
    const bad =
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="0" failures="0" errors="0" skipped="0"/>\n';
    expect((await schemaErrors(bad)).join('\n')).toMatch(/skipped/);
  });

  it('keeps failure messages on one line and the whole multi-line detail in the text', () => {
    const run = sampleRun();
    const cell = run.cells[0]!;
    cell.checks[0]!.detail = 'call 1 attempt 1: 400\ncall 1 attempt 2: 400\n  {"error": "x"}';
    const xml = renderJunit(buildCompatibilityReport(run, { root: '/project' }));
    const doc = parse(xml);
    const failures = (
      doc.testsuites.testsuite as Array<{ testcase: Array<{ failure?: { message: string; '#text': string } }> }>
    )
      .flatMap((s) => s.testcase)
      .flatMap((t) => (t.failure ? [t.failure] : []));
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f.message).not.toMatch(/[\r\n]/);
    expect(failures.some((f) => f['#text'].includes('call 1 attempt 2: 400\n'))).toBe(true);
  });

  const anyText = fc.string({ unit: 'binary', maxLength: 40 });
  const anyCell = fc.record({
    scenario: anyText,
    target: anyText,
    route: fc.constantFrom('a', 'b&<c>', 'd"e'),
    status: fc.constantFrom('pass' as const, 'warn' as const, 'fail' as const, 'n/a' as const),
    detail: anyText,
    behaviour: fc.constantFrom(...BEHAVIOURS),
  });
  it('any text in any field still gives a schema-valid document (40 generated runs, validated in one xmllint call)', async () => {
    const runs = fc.sample(fc.array(anyCell, { minLength: 1, maxLength: 6 }), { numRuns: 40 });
    const docs = runs.map((cells, i) => {
      const run: ConformanceRun = {
        routesFile: 'r.json',
        startedAt: '',
        durationMs: 0,
        cells: cells.map((c): CellVerdict => ({
          scenario: c.scenario,
          target: c.target,
          route: c.route,
          tier: 'standard',
          family: 'openai-chat',
          status: c.status,
          checks: [{ behaviour: c.behaviour, status: c.status, detail: c.detail }],
          exchanges: [],
        })),
      };
      return { fileName: `junit-${i}.xml`, contents: renderJunit(buildCompatibilityReport(run, { root: '/project' })) };
    });
    const result = await validateXML({ xml: docs, schema: [xsd] });
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
  });
});
