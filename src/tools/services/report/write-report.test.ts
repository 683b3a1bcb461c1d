import { BEHAVIOURS } from '../../../judge/conformance/verdict.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { schemaValidator } from '../../../shared/validation/validate.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import type { CompatibilityReport } from './compatibility-report.js';
import { sampleRun } from './sample-run.test-helper.js';
import { REPORT_FILES, writeReport } from './write-report.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rr-report-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const report = () =>
  buildCompatibilityReport(sampleRun(), { routeOrder: ['mistral', 'deepseek', 'openrouter'], root: '/project' });

describe('writeReport', () => {
  it('writes the four files and nothing else (no temp files left behind)', () => {
    const dir = tempDir();
    writeReport(report(), dir, { root: '/project' });
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
  });

  it('writes JSON that its schema accepts and that round-trips to the report', () => {
    const dir = tempDir();
    writeReport(report(), dir, { root: '/project' });
    const json = JSON.parse(readFileSync(join(dir, 'compatibility.json'), 'utf8'));
    expect(schemaValidator('compatibility.schema.json')(json)).toBe(true);
    expect(json).toEqual(report());
  });

  it('refuses to write a report its schema rejects, leaving the old files whole', () => {
    const dir = tempDir();
    writeReport(report(), dir, { root: '/project' });
    const before = readFileSync(join(dir, 'compatibility.md'), 'utf8');
    const broken = {
      ...report(),
      summary: { ...report().summary, verdict: 'maybe' },
    } as unknown as CompatibilityReport;
    expect(() => writeReport(broken, dir, { root: '/project' })).toThrow(
      /compatibility.schema.json at \/summary\/verdict/,
    );
    expect(readFileSync(join(dir, 'compatibility.md'), 'utf8')).toBe(before);
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort());
  });

  it('writes well-formed JUnit: one suite per route, one case per matrix cell, failures carry the failing checks', () => {
    const dir = tempDir();
    writeReport(report(), dir, { root: '/project' });
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = doc.testsuites.testsuite as Array<{
      name: string;
      tests: string;
      failures: string;
      testcase: Array<{ name: string; failure?: { message: string; '#text': string } }>;
    }>;
    expect(suites.map((s) => s.name)).toEqual(['route mistral', 'route deepseek', 'route openrouter']);
    expect(doc.testsuites.tests).toBe(String(3 * BEHAVIOURS.length));
    expect(doc.testsuites.failures).toBe('2');
    const deepseek = suites[1]!;
    expect(deepseek.testcase).toHaveLength(BEHAVIOURS.length);
    const mustEcho = deepseek.testcase.find((t) => t.name === 'must-echo')!;
    // The parser decodes entities, so the detail's <, &, quotes came through escaped and intact.
    expect(mustEcho.failure!['#text']).toContain(
      `reasoning_content missing on a tool-call turn <assistant> & "pad" 'expected'`,
    );
    expect(mustEcho.failure!['#text']).toContain('fixtures/providers/deepseek/tool-call-without-stored-reasoning.json');
  });

  it('writes markdown with a summary and one matrix row per route, symbols for states', () => {
    const dir = tempDir();
    writeReport(report(), dir, { root: '/project' });
    const md = readFileSync(join(dir, 'compatibility.md'), 'utf8');
    expect(md).toContain('## reasoning-replay compatibility: ✗ 2 failing cells');
    expect(md).toContain('| ✗ fail | 2 | 1 |');
    expect(md).toMatch(/^\| `deepseek` \| ✗ \| synthesized \| ✓ \| ✗ \| ✗ \| – \| – \|/m);
    expect(md).toMatch(/^\| `mistral` \| ✓ \| recorded \|/m);
    expect(md).toContain('- ✗ `deepseek` × must-echo: `tool-call-without-stored-reasoning` on `deepseek`');
    expect(md).toContain("Every check, one line per attempt, with the providers' raw answers: see compatibility.html.");
  });

  it('writes one self-contained HTML file: no external assets, escaped details, links relative to where it is read', () => {
    const dir = tempDir();
    writeReport(report(), dir, { root: '/project', readFrom: '/project/reports' });
    const html = readFileSync(join(dir, 'compatibility.html'), 'utf8');
    expect(html).not.toMatch(/<link\b|<img\b|\bsrc=|url\(|@import|https?:\/\//);
    expect(html).toContain('&lt;assistant&gt; &amp; &quot;pad&quot;');
    expect(html).not.toContain('<assistant>');
    expect(html).toContain('href="../specs/scenarios/tool-call-without-stored-reasoning.json"');
    expect(html).toContain('href="../fixtures/providers/deepseek/tool-call-without-stored-reasoning.json"');
    expect(html.match(/<td class="cell /g)).toHaveLength(3 * BEHAVIOURS.length);
    expect(html.match(/<td class="cell fail-tone fail"/g)).toHaveLength(2);
  });

  it('fails the verdict and a JUnit case for each route no provider spec resolves to', () => {
    const dir = tempDir();
    const all = buildCompatibilityReport(
      { ...sampleRun(), cells: sampleRun().cells.filter((c) => c.status === 'pass') },
      { root: '/project', untestedRoutes: ['nous-portal'] },
    );
    expect(all.summary.cells.fail).toBe(0);
    expect(all.summary.verdict).toBe('fail');
    writeReport(all, dir, { root: '/project' });
    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<testsuite name="untested routes" tests="1" failures="1"');
    expect(readFileSync(join(dir, 'compatibility.md'), 'utf8')).toContain(
      'untested routes (no provider spec in specs/providers/ resolves to them): `nous-portal`',
    );
    expect(readFileSync(join(dir, 'compatibility.html'), 'utf8')).toContain('<p class="untested" id="untested">');
  });

  it('shows the real-world section in every format: totals, one row per provider, each disagreement', () => {
    const dir = tempDir();
    const withCases = report();
    const counts = { cases: 3, accepted: 1, rejected: 2, agree: 2, disagree: 1, contestedDisagree: 0 };
    withCases.realWorld = {
      total: counts,
      providers: [{ provider: 'deepseek', ...counts }],
      disagreements: [
        { id: 'deepseek-case', provider: 'deepseek', contested: false, difference: 'real=400 "x", mock=accepted' },
      ],
    };
    writeReport(withCases, dir, { root: '/project', readFrom: '/project/reports' });
    expect(
      schemaValidator('compatibility.schema.json')(JSON.parse(readFileSync(join(dir, 'compatibility.json'), 'utf8'))),
    ).toBe(true);
    const md = readFileSync(join(dir, 'compatibility.md'), 'utf8');
    expect(md).toContain(
      'The mocks answered 2 of 3 public cases (1 accepted, 2 rejected by the real provider) as the real provider did; ✗ 1 disagree.',
    );
    expect(md).toContain('| deepseek | 3 | 2 | 1 | 0 |');
    const html = readFileSync(join(dir, 'compatibility.html'), 'utf8');
    expect(html).toContain('<b data-count="real-world-agree">2</b> of <b data-count="real-world-cases">3</b>');
    expect(html).toContain('href="../specs/real-world/deepseek-case.json"');
  });

  it('is deterministic: the same run written twice gives identical bytes', () => {
    const a = tempDir();
    const b = tempDir();
    writeReport(report(), a, { root: '/project', readFrom: '/project/reports' });
    writeReport(
      buildCompatibilityReport(
        { ...sampleRun(), durationMs: 5, startedAt: '2031-01-01T00:00:00Z' },
        { routeOrder: ['mistral', 'deepseek', 'openrouter'], root: '/project' },
      ),
      b,
      {
        root: '/project',
        readFrom: '/project/reports',
      },
    );
    for (const f of REPORT_FILES) expect(readFileSync(join(b, f), 'utf8')).toBe(readFileSync(join(a, f), 'utf8'));
  });
});
