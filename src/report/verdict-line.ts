import type { ReportSummary } from './compatibility-report.js';
import { STATUS_SYMBOL } from './status-symbols.js';

/** "✓ every route conforms" / "✗ 2 failing cells, 1 untested route": the headline of every report format. */
export function verdictLine(summary: ReportSummary, cellNoun = 'cell'): string {
  if (summary.verdict === 'pass') return `${STATUS_SYMBOL.pass} every route conforms`;
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (summary.matrix.fail > 0) parts.push(`${plural(summary.matrix.fail, `failing ${cellNoun}`)}`);
  if (summary.untestedRoutes.length > 0) parts.push(plural(summary.untestedRoutes.length, 'untested route'));
  if (parts.length === 0) parts.push(plural(summary.scenarioCells.fail, 'failing scenario run'));
  return `${STATUS_SYMBOL.fail} ${parts.join(', ')}`;
}
