import type { EngineFaultResult } from '../engine-faults/run-engine-faults.js';
import type { SuiteFigures } from '../suites/suite-figures.js';
import { decisionsOf } from './build-compatibility-report.js';
import type { CompatibilityReport, RealWorldSection, StatusCounts } from './compatibility-report.js';
import { summarizeDetail } from './explain-check.js';
import { describeProvenance, STATUS_LEGEND, STATUS_SYMBOL, UNITS_EXPLAINED } from './status-symbols.js';
import { verdictLine } from './verdict-line.js';

/** GitHub refuses a comment body over 65,536 characters; the comment stays well under it. */
export const MARKDOWN_LIMIT = 65_536;
/** Room kept for the closing lines and for what a CI step may add around the comment. */
const BUDGET = MARKDOWN_LIMIT - 4_096;
/** The matrix gets at most this much of the budget; the failing checks need the rest. */
const MATRIX_BUDGET = 24_000;
/** A problem line is cut to this many characters: its detail is one line in the HTML and JSON. */
const LINE_LENGTH = 400;

export interface MarkdownOptions {
  /** Where the HTML report is published (a CI artifact link); the closing pointer links to it. */
  htmlUrl?: string;
}

/**
 * compatibility.md: a pull-request comment. Summary first, then the route x behaviour matrix, then
 * one line per failing or warning check until the size budget runs out, with the count of the rest.
 */
export function renderMarkdown(report: CompatibilityReport, options: MarkdownOptions = {}): string {
  const { summary } = report;
  const lines: string[] = [];
  lines.push(`## reasoning-replay compatibility: ${verdictLine(summary)}`, '');
  lines.push(
    `Route table \`${md(report.routesFile)}\` · ${summary.routes} routes · ${summary.providers.length} providers · ${summary.scenarios.length} scenarios · source: ${report.source}`,
    '',
  );
  if (summary.untestedRoutes.length > 0) {
    lines.push(
      `${STATUS_SYMBOL.fail} untested routes (no provider spec in specs/providers/ resolves to them): ${summary.untestedRoutes.map((r) => `\`${md(r)}\``).join(', ')}`,
      '',
    );
  }
  lines.push('| | cells (route x behaviour) | scenario runs |', '|---|---:|---:|');
  const row = (label: string, key: keyof StatusCounts) => `| ${label} | ${summary.cells[key]} | ${summary.runs[key]} |`;
  lines.push(
    row(`${STATUS_SYMBOL.pass} pass`, 'pass'),
    row(`${STATUS_SYMBOL.warn} warning`, 'warn'),
    row(`${STATUS_SYMBOL.fail} fail`, 'fail'),
    row(`${STATUS_SYMBOL['n/a']} not applicable`, 'na'),
    row('total', 'total'),
    '',
    `<sub>${md(UNITS_EXPLAINED)}</sub>`,
    '',
  );

  lines.push(`| route | verdict | fixtures | ${report.behaviours.join(' | ')} |`);
  lines.push(`|---|:-:|---|${report.behaviours.map(() => ':-:').join('|')}|`);
  const rowOf = (r: (typeof report.routes)[number]) =>
    `| \`${md(r.route)}\` | ${STATUS_SYMBOL[r.status]} | ${describeProvenance(r.provenance)} | ${r.matrix.map((m) => STATUS_SYMBOL[m.status]).join(' | ')} |`;
  // A very large table keeps the routes that need a reader (failing, warning) and counts the rest.
  let shownRoutes = report.routes;
  if (report.routes.reduce((n, r) => n + rowOf(r).length + 1, 0) > MATRIX_BUDGET)
    shownRoutes = report.routes.filter((r) => r.status === 'fail' || r.status === 'warn');
  let used = 0;
  let listedRoutes = 0;
  for (const r of shownRoutes) {
    const row = rowOf(r);
    if (used + row.length + 1 > MATRIX_BUDGET) break;
    lines.push(row);
    used += row.length + 1;
    listedRoutes++;
  }
  if (listedRoutes < report.routes.length)
    lines.push(
      `| … ${report.routes.length - listedRoutes} more routes${shownRoutes !== report.routes ? ' (every one of them passes or is not applicable)' : ''}: ${closingPointer(options)} |`,
    );
  lines.push('', STATUS_LEGEND, '');

  const problems = report.routes.flatMap((r) =>
    r.matrix.flatMap((m) =>
      decisionsOf(report, r.route, m)
        .filter((d) => d.status === 'fail' || d.status === 'warn')
        .map((d) => ({ route: r.route, behaviour: m.behaviour, d })),
    ),
  );
  const closing = closingPointer(options);
  if (problems.length > 0) {
    lines.push('### Failing and warning checks', '');
    let size = lines.reduce((n, l) => n + l.length + 1, 0);
    let shown = 0;
    for (const { route, behaviour, d } of problems.sort((a, b) =>
      a.d.status === b.d.status ? 0 : a.d.status === 'fail' ? -1 : 1,
    )) {
      const fixture = d.fixture ? ` (fixture \`${md(d.fixture.path)}\`)` : '';
      const line = cut(
        `- ${STATUS_SYMBOL[d.status]} \`${md(route)}\` × ${behaviour}: \`${md(d.scenario)}\` on \`${md(d.target)}\`: ${md(summarizeDetail(d.detail, LINE_LENGTH))}${fixture}`,
        LINE_LENGTH,
      );
      if (size + line.length + 1 > BUDGET) break;
      lines.push(line);
      size += line.length + 1;
      shown++;
    }
    if (shown < problems.length) lines.push(`- … and ${problems.length - shown} more (${closing})`);
    lines.push('');
  }
  if (report.realWorld) lines.push(...realWorldLines(report.realWorld), '');
  if (report.recoversFromFaults) lines.push(...faultLines(report.recoversFromFaults), '');
  if (report.suites?.length) lines.push(...suiteLines(report.suites), '');
  lines.push(`Every check, one line per attempt, with the providers' raw answers: ${closing}.`, '');
  return lines.join('\n');
}

/** The real-world section: totals and one row per provider; the cases themselves are in the HTML and JSON. */
function realWorldLines(rw: RealWorldSection): string[] {
  const t = rw.total;
  const out = [
    '### Real-world cases',
    '',
    `The mocks answered ${t.agree} of ${t.cases} public cases (${t.accepted} accepted, ${t.rejected} rejected by the real provider) as the real provider did` +
      `${t.contestedDisagree ? `; ${t.contestedDisagree} contested (${STATUS_SYMBOL.warn} warning)` : ''}${t.disagree ? `; ${STATUS_SYMBOL.fail} ${t.disagree} disagree` : ''}. Cases: \`specs/real-world/\`.`,
    '',
    '| provider | cases | agree | disagree | contested |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const p of rw.providers)
    out.push(`| ${md(p.provider)} | ${p.cases} | ${p.agree} | ${p.disagree} | ${p.contestedDisagree} |`);
  if (rw.parameters) out.push('', ...parameterLines(rw.parameters));
  return out;
}

/** The parameter tables against the catalogues: one row per provider that has reasoning models. */
function parameterLines(pc: NonNullable<RealWorldSection['parameters']>): string[] {
  const t = pc.total;
  const out = [
    '### Reasoning parameters per model',
    '',
    `Catalogued reasoning models × the reasoning parameters their provider documents: ${t.sourced} of ${t.cells} have a sourced row` +
      `${t.knownNone ? `, ${t.knownNone} a stated reason none is known (not counted as covered)` : ''}${t.missing ? `, ${t.missing} nothing` : ''}. ` +
      `${pc.fullyCovered.models} of ${pc.fullyCovered.of} reasoning models have a sourced row for every documented parameter; a provider that documents none counts its models as not covered. Tables: \`models.parameters\` in \`specs/providers/\`.`,
    '',
    '| provider | reasoning models | documented parameters | sourced | known none | missing |',
    '|---|---:|---|---:|---:|---:|',
  ];
  for (const p of pc.providers)
    if (p.models > 0)
      out.push(
        `| ${md(p.provider)} | ${p.models} | ${md(p.documented.join(', ') || '(none)')} | ${p.sourced}/${p.cells} | ${p.knownNone} | ${p.missing} |`,
      );
  return out;
}

/** recovers-from-faults for this project's engine: one row per route, the faults it did not recover from named. */
export function faultLines(results: readonly EngineFaultResult[]): string[] {
  const routes = [...new Set(results.map((r) => r.route))];
  const count = (status: EngineFaultResult['status']) => results.filter((r) => r.status === status).length;
  const out = [
    '### Recovers from faults (this project’s engine)',
    '',
    `Each route’s first provider under each fault of \`specs/faults.json\` that applies to it, through mocks that inject it once: ` +
      `${STATUS_SYMBOL.pass} ${count('pass')} recovered, ${STATUS_SYMBOL.fail} ${count('fail')} not, ${count('not-injected')} never injected (no answer it applies to came).`,
    '',
    '| route (provider) | recovered | not recovered | not injected |',
    '|---|---:|---|---:|',
  ];
  for (const route of routes) {
    const own = results.filter((r) => r.route === route);
    const failed = own.filter((r) => r.status === 'fail');
    out.push(
      `| ${md(route)} (${md(own[0]!.provider)}) | ${own.filter((r) => r.status === 'pass').length} | ${failed.length ? failed.map((r) => `${STATUS_SYMBOL.fail} ${md(r.fault)}: ${md(r.detail).slice(0, 200)}`).join('<br>') : '0'} | ${own.filter((r) => r.status === 'not-injected').length} |`,
    );
  }
  return out;
}

/** Other projects' published schemas: how many rendered bodies and stream events conform, and the first departures. */
function suiteLines(suites: readonly SuiteFigures[]): string[] {
  const out = ['### Published schemas of other projects', ''];
  for (const f of suites) {
    const ok = f.bodies.conforming === f.bodies.checked && f.events.conforming === f.events.checked;
    out.push(
      `- ${ok ? STATUS_SYMBOL.pass : STATUS_SYMBOL.fail} \`${md(f.schema)}\` (${md(f.pin)}) on ${f.specs.map(md).join(', ')}: ` +
        `${f.bodies.conforming} of ${f.bodies.checked} answers and ${f.events.conforming} of ${f.events.checked} stream events conform.`,
    );
    for (const d of f.departures) out.push(`  - ${md(d)}`);
  }
  return out;
}

function closingPointer(options: MarkdownOptions): string {
  return options.htmlUrl ? `see [compatibility.html](${options.htmlUrl})` : 'see compatibility.html';
}

/** Keeps a value on one table line and out of markdown syntax. */
function md(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/`/g, "'");
}

function cut(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
