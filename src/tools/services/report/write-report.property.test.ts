import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { BEHAVIOURS, cellStatus, type CellVerdict, type ConformanceRun } from '../../../judge/conformance/verdict.js';
import { buildCompatibilityReport, decisionsOf } from './build-compatibility-report.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-markdown.js';
import { renderJson } from './write-report.js';

/** Text as hostile as a provider's error body can be: markup, quotes, controls, lone surrogates, pipes. */
const nasty = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '<',
      '>',
      '&',
      '"',
      "'",
      '|',
      '`',
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u001b',
      '\ud800',
      '\udfff',
      ']]>',
      '--',
      '%',
      '✓',
    ),
    fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 40,
});
const id = fc.string({
  unit: fc.oneof(fc.constantFrom('a', 'b', '-', '.', '<', '&', '"', '|', ' '), fc.constantFrom('x', 'y')),
  minLength: 1,
  maxLength: 8,
});
const status = fc.constantFrom('pass' as const, 'warn' as const, 'fail' as const, 'n/a' as const);

const cellArb: fc.Arbitrary<CellVerdict> = fc
  .record({
    scenario: id,
    target: id,
    route: id,
    tier: fc.constantFrom('standard', 'strict', 'must-echo'),
    family: fc.constant('openai-chat'),
    checks: fc.array(fc.record({ behaviour: fc.constantFrom(...BEHAVIOURS), status, detail: nasty }), { maxLength: 6 }),
    fixture: fc.option(
      fc.record({ path: id, provenance: fc.constantFrom('recorded' as const, 'synthesized' as const) }),
      { nil: undefined },
    ),
    violations: fc.array(nasty, { maxLength: 2 }),
  })
  .map(({ fixture, violations, ...c }) => ({
    ...c,
    status: cellStatus(c.checks),
    exchanges: [
      {
        call: 0,
        provider: c.target,
        route: c.route,
        url: 'https://example.invalid/x',
        status: 400,
        sentFields: [],
        violations,
        attempt: 1 as const,
      },
    ],
    ...(fixture ? { fixture } : {}),
  }));

describe('report writers on arbitrary runs', () => {
  test('JSON fits its schema, JUnit is well-formed XML, HTML and markdown keep one cell per route x behaviour', () => {
    fc.assert(
      fc.property(fc.array(cellArb, { maxLength: 12 }), fc.array(id, { maxLength: 2 }), (cells, untested) => {
        const run: ConformanceRun = { routesFile: 'specs/routes.json', startedAt: '', durationMs: 0, cells };
        const report = buildCompatibilityReport(run, { root: '/project', untestedRoutes: [...new Set(untested)] });
        expect(() => renderJson(report)).not.toThrow();
        const xml = renderJunit(report);
        expect(XMLValidator.validate(xml)).toBe(true);
        const html = renderHtml(report, { linkBase: '..' });
        expect(html.split('<td class="cell ').length - 1).toBe(report.routes.length * BEHAVIOURS.length);
        // Escaped text cannot open an element: every "<li" in the page is one the renderer wrote.
        const expectedItems = report.routes.reduce((n, r) => {
          const decisions = r.matrix.map((m) => decisionsOf(report, r.route, m));
          const loud = decisions.flat().filter((d) => !(d.status === 'pass' && d.detail === '')).length;
          const quietCells = decisions.filter((ds) => ds.some((d) => d.status === 'pass' && d.detail === '')).length;
          const problems = r.matrix.filter((m) => m.status === 'fail' || m.status === 'warn').length;
          const runs = report.runs.filter(
            (c) => c.route === r.route && (c.status !== 'n/a' || c.exchanges.length > 0 || c.checks.length > 0),
          ).length;
          return n + loud + quietCells + problems + runs;
        }, 0);
        expect(html.split('<li ').length - 1).toBe(expectedItems);
        const md = renderMarkdown(report);
        const rows = md.split('\n').filter((l) => l.startsWith('| `'));
        expect(rows).toHaveLength(report.routes.length);
        for (const row of rows) expect(row.split(/(?<!\\)\|/).length - 2).toBe(3 + BEHAVIOURS.length);
      }),
    );
  });
});
