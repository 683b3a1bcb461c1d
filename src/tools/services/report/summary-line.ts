import type { CompatibilityReport } from './compatibility-report.js';
import { describeCounts, STATUS_SYMBOL } from './status-symbols.js';

/** The one line `report` (and `report --merge`) ends with: the verdict, the cells, the runs, untested routes. */
export function reportSummaryLine(report: CompatibilityReport): string {
  const { cells, runs } = report.summary;
  return (
    `${STATUS_SYMBOL[report.summary.verdict]} ${report.summary.routes} routes x ${report.behaviours.length} behaviours = ${cells.total} cells: ${describeCounts(cells)}` +
    ` (from ${runs.total} scenario runs)${report.summary.untestedRoutes.length ? `; untested routes: ${report.summary.untestedRoutes.join(', ')}` : ''}\n`
  );
}
