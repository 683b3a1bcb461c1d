import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { realWorldReportSection, type RealWorldAgreement } from '../real-world-cases/agreement.js';
import { parameterCoverageSection } from '../parameter-coverage/parameter-coverage.js';
import { suiteFigures, type SuiteFigures } from '../suites/suite-figures.js';
import type { RealWorldSection } from './compatibility-report.js';

/**
 * What the report says beside the matrix: the mocks' agreement with the real-world cases, the parameter tables'
 * coverage of the catalogue, and the answers held against other projects' published schemas. One function, so an
 * unsharded `report` and `report --merge` of `check --shard` files write the same bytes.
 */
export function sectionsBeyondTheMatrix(
  specs: readonly ProviderSpec[],
  agreement: RealWorldAgreement,
): { realWorld: RealWorldSection; suites?: SuiteFigures[] } {
  const realWorld: RealWorldSection = {
    ...realWorldReportSection(agreement),
    // Which catalogued reasoning models have a sourced row for each parameter their provider documents.
    parameters: parameterCoverageSection(specs),
  };
  // Other projects' published schemas the answers are checked against as well (specs/responses/ files marked suite).
  const suites = suiteFigures(specs);
  return suites.length > 0 ? { realWorld, suites } : { realWorld };
}
