import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BEHAVIOURS, type CellVerdict, type ConformanceRun } from '../../../judge/conformance/verdict.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import { MARKDOWN_LIMIT, renderMarkdown } from './render-markdown.js';

/** `failures` failing checks spread over routes, each with a long multi-line detail and a raw body. */
function failingRun(failures: number, detailLength: number, routes = 40): ConformanceRun {
  const cells: CellVerdict[] = [];
  for (let i = 0; i < failures; i++) {
    const body = JSON.stringify({ error: { message: 'x'.repeat(detailLength) } });
    cells.push({
      scenario: `scenario-${i}`,
      target: `provider-${i % 40}`,
      route: `route-${i % routes}-${'r'.repeat(30)}`,
      tier: 'standard',
      family: 'openai-chat',
      status: 'fail',
      checks: [
        {
          behaviour: BEHAVIOURS[i % BEHAVIOURS.length]!,
          status: 'fail',
          detail: `call 1 attempt 1: answered 400 ${'y'.repeat(detailLength)} — ${body}\ncall 1 attempt 2: answered 400 — ${body}`,
        },
      ],
      exchanges: [],
    });
  }
  return { routesFile: 'specs/routes.json', startedAt: '', durationMs: 0, cells };
}

describe('renderMarkdown for a pull-request comment', () => {
  it('stays under GitHub’s 65,536-character limit with 500 long failures, and says how many it left out', () => {
    const md = renderMarkdown(buildCompatibilityReport(failingRun(500, 2_000), { root: '/project' }), {
      htmlUrl: 'https://ci.example/artifacts/compatibility.html',
    });
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT);
    const listed = md.split('\n').filter((l) => l.startsWith('- ✗ '));
    expect(listed.length).toBeGreaterThan(20);
    expect(md).toContain(
      `- … and ${500 - listed.length} more (see [compatibility.html](https://ci.example/artifacts/compatibility.html))`,
    );
    for (const line of md.split('\n').filter((l) => l.startsWith('- '))) expect(line.length).toBeLessThanOrEqual(400);
  });

  it('lists every failure when they fit, and links the HTML when told where it is', () => {
    const md = renderMarkdown(buildCompatibilityReport(failingRun(5, 50), { root: '/project' }), {
      htmlUrl: 'https://ci.example/r.html',
    });
    expect(md.split('\n').filter((l) => l.startsWith('- ✗ '))).toHaveLength(5);
    expect(md).not.toContain('more (see');
    expect(md).toContain('see [compatibility.html](https://ci.example/r.html)');
    expect(renderMarkdown(buildCompatibilityReport(failingRun(5, 50), { root: '/project' }))).toContain(
      'see compatibility.html.',
    );
  });

  it('puts each failure on one line, without the provider’s raw body', () => {
    const md = renderMarkdown(buildCompatibilityReport(failingRun(3, 10), { root: '/project' }));
    const lines = md.split('\n').filter((l) => l.startsWith('- ✗ '));
    for (const line of lines) {
      expect(line).toMatch(/call 1 attempt 1: answered 400 y+ · provider says: x+ \(\+1 more\)/);
      expect(line).not.toContain('{"error"');
    }
  });

  it('never passes the limit, whatever the number and length of failures', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1, max: 2_000 }),
        (failures, length, routes) => {
          expect(
            renderMarkdown(buildCompatibilityReport(failingRun(failures, length, routes), { root: '/project' })).length,
          ).toBeLessThan(MARKDOWN_LIMIT);
        },
      ),
      { numRuns: 15 },
    );
  });
});
