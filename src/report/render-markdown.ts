import type { CompatibilityReport, StatusCounts } from './compatibility-report.js';
import { describeProvenance, STATUS_SYMBOL } from './status-symbols.js';
import { verdictLine } from './verdict-line.js';

/** How many failing decisions the comment lists before pointing at the HTML; PR comments have a size limit. */
const MAX_FAILURES_LISTED = 50;

/** compatibility.md: a pull-request comment. Summary first, then the route x behaviour matrix, then what failed. */
export function renderMarkdown(report: CompatibilityReport): string {
  const { summary } = report;
  const lines: string[] = [];
  const headline = verdictLine(summary, 'route x behaviour cell');
  lines.push(`## reasoning-replay compatibility: ${headline}`, '');
  lines.push(
    `Route table \`${md(report.routesFile)}\` · ${summary.routes} routes · ${summary.providers.length} providers · ${summary.scenarios.length} scenarios · source: ${report.source}`,
    '',
  );
  if (summary.untestedRoutes.length > 0) {
    lines.push(`${STATUS_SYMBOL.fail} untested routes (no provider spec in specs/providers/ resolves to them): ${summary.untestedRoutes.map((r) => `\`${md(r)}\``).join(', ')}`, '');
  }
  lines.push('| | route x behaviour | scenario cells |', '|---|---:|---:|');
  const row = (label: string, key: keyof StatusCounts) => `| ${label} | ${summary.matrix[key]} | ${summary.scenarioCells[key]} |`;
  lines.push(row(`${STATUS_SYMBOL.pass} pass`, 'pass'), row(`${STATUS_SYMBOL.fail} fail`, 'fail'), row(`${STATUS_SYMBOL['n/a']} n/a`, 'na'), row('total', 'total'), '');

  lines.push(`| route | providers | fixtures | ${report.behaviours.join(' | ')} |`);
  lines.push(`|---|---|---|${report.behaviours.map(() => ':-:').join('|')}|`);
  for (const r of report.routes) {
    const cells = r.matrix.map((m) => STATUS_SYMBOL[m.status]);
    lines.push(`| \`${md(r.route)}\` | ${md(r.providers.join(', '))} | ${describeProvenance(r.provenance)} | ${cells.join(' | ')} |`);
  }
  lines.push('', `${STATUS_SYMBOL.pass} pass · ${STATUS_SYMBOL.fail} fail · ${STATUS_SYMBOL['n/a']} not applicable`, '');

  const failures = report.routes.flatMap((r) =>
    r.matrix.flatMap((m) => m.decisions.filter((d) => d.status === 'fail').map((d) => ({ route: r.route, behaviour: m.behaviour, d }))),
  );
  if (failures.length > 0) {
    lines.push('### Failing checks', '');
    for (const { route, behaviour, d } of failures.slice(0, MAX_FAILURES_LISTED)) {
      const fixture = d.fixture ? ` (fixture \`${md(d.fixture.path)}\`, ${d.fixture.provenance})` : '';
      lines.push(`- \`${md(route)}\` × ${behaviour}: scenario \`${md(d.scenario)}\` on \`${md(d.target)}\`: ${md(d.detail)}${fixture}`);
    }
    if (failures.length > MAX_FAILURES_LISTED) lines.push(`- … and ${failures.length - MAX_FAILURES_LISTED} more (see compatibility.html)`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Keeps a value on one table line and out of markdown syntax. */
function md(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/`/g, "'");
}
