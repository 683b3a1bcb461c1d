import { uncoveredRoutes } from '../../../judge/conformance/route-coverage.js';
import { loadMatrixInputs, runMatrix, type MatrixInputs } from '../matrix/run-matrix.js';
import { realWorldAgreement } from '../real-world-cases/agreement.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import { sectionsBeyondTheMatrix } from './sections-beyond-the-matrix.js';
import type { CompatibilityReport } from './compatibility-report.js';

/**
 * Runs the conformance matrix and aggregates it into the report: rows in route-table order, the
 * table's untested routes named, and the mocks' agreement with the real-world corpus (specs/real-world/). What `report`
 * writes and what the staleness test regenerates.
 */
export async function generateReport(inputs: MatrixInputs): Promise<CompatibilityReport> {
  const loaded = loadMatrixInputs(inputs);
  const run = await runMatrix(inputs, loaded);
  const report = buildCompatibilityReport(run, {
    routeOrder: loaded.table.routes.map((r) => r.id),
    untestedRoutes: uncoveredRoutes(loaded.table, loaded.specs),
  });
  // How far the mocks the matrix ran against answer as the real providers did, on public cases, and the rest of
  // what the report says beside the matrix.
  Object.assign(report, sectionsBeyondTheMatrix(loaded.specs, await realWorldAgreement({ specs: loaded.specs })));
  return report;
}
