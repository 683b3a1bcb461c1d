import type { EngineFaultResult } from '../engine-faults/run-engine-faults.js';
import type { RealWorldReportSection } from '../real-world-cases/agreement.js';
import type { SuiteFigures } from '../suites/suite-figures.js';
import type { Behaviour, CheckStatus, ExchangeRecord, JudgeFinding } from '../../../judge/conformance/verdict.js';

/**
 * The report's data model, mirrored by specs/schema/compatibility.schema.json (the schema is the
 * authority). Every writer (json, md, html, junit) renders this and nothing else, so the four files
 * can never disagree. It holds no timing: the committed sample must regenerate byte for byte.
 *
 * Two levels, named the same way everywhere:
 * - a **scenario run** is one scenario played against one provider target (`runs`);
 * - a **cell** is one route x behaviour square of the matrix (`routes[].matrix`), decided by the
 *   checks of every scenario run on that route.
 * Each check is stored once, in its run. A cell's checks are not listed again: they are the checks of
 * that behaviour in the runs on that route (`decisionsOf` finds them).
 */
export interface CompatibilityReport {
  reportVersion: 2;
  /** Route table the run used, relative to the project root when it lives inside it. */
  routesFile: string;
  /** Where the results came from: the in-process matrix or a `serve` request log. */
  source: 'matrix' | 'log';
  behaviours: Behaviour[];
  summary: ReportSummary;
  routes: RouteRow[];
  /** Every scenario run with its checks: what the matrix cells refer to. */
  runs: ScenarioRun[];
  /** How the mocks answer the public real-world cases (specs/real-world/) compared with the real providers. */
  realWorld?: RealWorldSection;
  /**
   * recovers-from-faults for this project's engine (`report --faults`): per route, each injected fault of
   * specs/faults.json that applies to it, recovered or the request that showed the damage.
   */
  recoversFromFaults?: EngineFaultResult[];
  /** The mocks' answers against other projects' published schemas (Open Responses): bodies and events that conform. */
  suites?: SuiteFigures[];
}

/** The real-world section is the corpus's own summary (src/tools/services/real-world-cases/agreement.ts), stored as it is. */
export type RealWorldSection = RealWorldReportSection;

export interface StatusCounts {
  total: number;
  pass: number;
  warn: number;
  fail: number;
  na: number;
}

export interface ReportSummary {
  /** fail: a failing cell or an untested route; warn: no failure, some warning; pass otherwise. */
  verdict: 'pass' | 'warn' | 'fail';
  routes: number;
  /** Routes in the table no provider spec resolves to (no scenario run could test them). */
  untestedRoutes: string[];
  providers: string[];
  scenarios: string[];
  /** Route x behaviour cells. */
  cells: StatusCounts;
  /** Scenario x provider-target runs. */
  runs: StatusCounts;
}

export interface ProvenanceCounts {
  recorded: number;
  synthesized: number;
  imported: number;
  none: number;
}

export type Provenance = 'recorded' | 'synthesized' | 'imported';

export interface RouteRow {
  route: string;
  /** The route's own verdict: its worst cell. */
  status: CheckStatus;
  tiers: string[];
  families: string[];
  /** Provider spec ids whose runs resolved to this route. */
  providers: string[];
  provenance: ProvenanceCounts;
  /** One per behaviour, in BEHAVIOURS order. */
  matrix: MatrixCell[];
}

export interface MatrixCell {
  behaviour: Behaviour;
  status: CheckStatus;
  /** How many checks bear on this cell; those whose status equals the cell's decided it. */
  checks: number;
}

/** A decision with its run's facts filled in: what the writers render. */
export interface Decision {
  run: string;
  scenario: string;
  target: string;
  status: CheckStatus;
  detail: string;
  findings?: JudgeFinding[];
  fixture?: FixtureRef;
}

export interface FixtureRef {
  path: string;
  provenance: Provenance;
}

export interface ReportCheck {
  behaviour: Behaviour;
  status: CheckStatus;
  detail: string;
  findings?: JudgeFinding[];
}

export interface ScenarioRun {
  id: string;
  scenario: string;
  target: string;
  route: string;
  tier: string;
  family: string;
  status: CheckStatus;
  /** Checks that say something; a blank "not applicable" (the scenario does not apply to the target) is left out. */
  checks: ReportCheck[];
  exchanges: ExchangeRecord[];
  fixture?: FixtureRef;
}
