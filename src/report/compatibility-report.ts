import type { Behaviour, CheckStatus, ExchangeRecord } from '../conformance/verdict.js';

/**
 * The report's data model, mirrored by specs/schema/compatibility.schema.json (the schema is the
 * authority). Every writer (json, md, html, junit) renders this and nothing else, so the four files
 * can never disagree. It holds no timing: the committed sample must regenerate byte for byte.
 */
export interface CompatibilityReport {
  reportVersion: 1;
  /** Route table the run used, relative to the project root when it lives inside it. */
  routesFile: string;
  /** Where the cells came from: the in-process matrix or a `serve` request log. */
  source: 'matrix' | 'log';
  behaviours: Behaviour[];
  summary: ReportSummary;
  routes: RouteRow[];
  /** Every scenario cell with its checks: what the matrix cells link to. */
  cells: ScenarioCell[];
}

export interface StatusCounts {
  total: number;
  pass: number;
  fail: number;
  na: number;
}

export interface ReportSummary {
  verdict: 'pass' | 'fail';
  routes: number;
  /** Routes in the table no provider spec resolves to (no cell could test them). */
  untestedRoutes: string[];
  providers: string[];
  scenarios: string[];
  /** Route x behaviour cells. */
  matrix: StatusCounts;
  /** Scenario x provider cells, as the run produced them. */
  scenarioCells: StatusCounts;
}

export interface ProvenanceCounts {
  recorded: number;
  synthesized: number;
  none: number;
}

export interface RouteRow {
  route: string;
  tiers: string[];
  families: string[];
  /** Provider spec ids whose cells resolved to this route. */
  providers: string[];
  provenance: ProvenanceCounts;
  /** One per behaviour, in BEHAVIOURS order. */
  matrix: MatrixCell[];
}

export interface MatrixCell {
  behaviour: Behaviour;
  status: CheckStatus;
  /** Every scenario check for this behaviour on this route; the ones whose status equals the cell's decided it. */
  decisions: Decision[];
}

export interface Decision {
  /** Id of the scenario cell in `cells`. */
  cell: string;
  scenario: string;
  target: string;
  status: CheckStatus;
  detail: string;
  fixture?: FixtureRef;
}

export interface FixtureRef {
  path: string;
  provenance: 'recorded' | 'synthesized';
}

export interface ScenarioCell {
  id: string;
  scenario: string;
  target: string;
  route: string;
  tier: string;
  family: string;
  status: CheckStatus;
  checks: { behaviour: Behaviour; status: CheckStatus; detail: string }[];
  exchanges: ExchangeRecord[];
  fixture?: FixtureRef;
}
