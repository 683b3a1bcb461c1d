import { uncoveredRoutes } from '../../../judge/conformance/route-coverage.js';
import { loadMatrixInputs, runMatrix, type MatrixInputs } from '../matrix/run-matrix.js';
import { realWorldAgreement, realWorldReportSection } from '../real-world-cases/agreement.js';
import { parameterCoverageSection } from '../parameter-coverage/parameter-coverage.js';
import { buildCompatibilityReport } from './build-compatibility-report.js';
import { suiteFigures } from '../suites/suite-figures.js';
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
  // How far the mocks the matrix ran against answer as the real providers did, on public cases.
  report.realWorld = {
    ...realWorldReportSection(await realWorldAgreement({ specs: loaded.specs })),
    // Which catalogued reasoning models have a sourced row for each parameter their provider documents.
    parameters: parameterCoverageSection(loaded.specs),
  };
  // Other projects' published schemas the answers are checked against as well (specs/responses/ files marked suite).
  const suites = suiteFigures(loaded.specs);
  if (suites.length > 0) report.suites = suites;
  return report;
}
