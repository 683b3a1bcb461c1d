import type { ReportSummary } from './compatibility-report.js';
import { STATUS_SYMBOL } from './status-symbols.js';

/** "✓ every route conforms" / "✗ 2 failing cells, 1 untested route": the headline of every report format. */
export function verdictLine(summary: ReportSummary): string {
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  if (summary.verdict === 'pass') return `${STATUS_SYMBOL.pass} every route conforms`;
  if (summary.verdict === 'warn')
    return `${STATUS_SYMBOL.warn} every route conforms, with ${plural(summary.cells.warn || summary.runs.warn, 'warning cell')}`;
  const parts: string[] = [];
  if (summary.cells.fail > 0) parts.push(plural(summary.cells.fail, 'failing cell'));
  if (summary.untestedRoutes.length > 0) parts.push(plural(summary.untestedRoutes.length, 'untested route'));
  if (parts.length === 0) parts.push(plural(summary.runs.fail, 'failing scenario run'));
  return `${STATUS_SYMBOL.fail} ${parts.join(', ')}`;
}
