import { isAbsolute, relative, sep } from 'node:path';
import {
  aggregateStatus,
  BEHAVIOURS,
  type Behaviour,
  type CellVerdict,
  type CheckStatus,
  type ConformanceRun,
} from '../../../judge/conformance/verdict.js';
import { projectRoot } from '../../../shared/project-root.js';
import type {
  CompatibilityReport,
  Decision,
  FixtureRef,
  MatrixCell,
  Provenance,
  ReportCheck,
  RouteRow,
  ScenarioRun,
  StatusCounts,
} from './compatibility-report.js';

export interface BuildReportOptions {
  /**
   * Route ids in table order (first match wins, so that order is how people read the table). Unlisted routes follow,
   * sorted.
   */
  routeOrder?: string[];
  source?: CompatibilityReport['source'];
  /** Paths inside this directory are written relative to it; defaults to the project root. */
  root?: string;
  /** Routes of the table that no provider spec resolves to: nothing tested them, and the verdict says so. */
  untestedRoutes?: string[];
}

/**
 * Aggregates a run into the report. A route x behaviour cell takes the worst status of the checks
 * for that behaviour on that route (fail > warn > pass > not applicable). Everything is sorted, and
 * the run's timing is left out, so equal runs give equal reports.
 */
export function buildCompatibilityReport(run: ConformanceRun, options: BuildReportOptions = {}): CompatibilityReport {
  const root = options.root ?? projectRoot();
  return reportFromScenarioRuns(scenarioRuns(run.cells, root), displayPath(run.routesFile, root), options);
}

/**
 * The report from scenario runs already in report form (sorted as `scenarioRuns` sorts them): what a run writes, and
 * what `report --merge` writes from the runs of every shard, so both are the same bytes.
 */
export function reportFromScenarioRuns(
  runs: ScenarioRun[],
  routesFile: string,
  options: Omit<BuildReportOptions, 'root'> = {},
): CompatibilityReport {
  const order = options.routeOrder ?? [];
  const rank = (route: string): number => {
    const i = order.indexOf(route);
    return i === -1 ? order.length : i;
  };
  const routeIds = [...new Set(runs.map((c) => c.route))].sort((a, b) => rank(a) - rank(b) || compare(a, b));
  const routes = routeIds.map((route) =>
    routeRow(
      route,
      runs.filter((c) => c.route === route),
    ),
  );
  const cells = countStatuses(routes.flatMap((r) => r.matrix.map((m) => m.status)));
  const runCounts = countStatuses(runs.map((c) => c.status));
  const untested = [...(options.untestedRoutes ?? [])].sort((a, b) => rank(a) - rank(b) || compare(a, b));
  const failed = cells.fail > 0 || runCounts.fail > 0 || untested.length > 0;
  return {
    reportVersion: 2,
    routesFile,
    source: options.source ?? 'matrix',
    behaviours: [...BEHAVIOURS],
    summary: {
      verdict: failed ? 'fail' : cells.warn > 0 || runCounts.warn > 0 ? 'warn' : 'pass',
      routes: routes.length,
      untestedRoutes: untested,
      providers: uniqueSorted(runs.map((c) => c.target)),
      scenarios: uniqueSorted(runs.map((c) => c.scenario)),
      cells,
      runs: runCounts,
    },
    routes,
    runs,
  };
}

/**
 * The checks of one cell, with their run's scenario, target and fixture filled in: the checks for
 * the cell's behaviour in every run on its route, in run order.
 */
export function decisionsOf(report: Pick<CompatibilityReport, 'runs'>, route: string, cell: MatrixCell): Decision[] {
  const out: Decision[] = [];
  for (const run of runsByRoute(report).get(route) ?? []) {
    for (const check of run.checks) {
      if (check.behaviour !== cell.behaviour) continue;
      const d: Decision = {
        run: run.id,
        scenario: run.scenario,
        target: run.target,
        status: check.status,
        detail: check.detail,
      };
      if (check.findings) d.findings = check.findings;
      if (run.fixture) d.fixture = run.fixture;
      out.push(d);
    }
  }
  return out;
}

const byRoute = new WeakMap<object, Map<string, ScenarioRun[]>>();
function runsByRoute(report: Pick<CompatibilityReport, 'runs'>): Map<string, ScenarioRun[]> {
  let index = byRoute.get(report.runs);
  if (!index) {
    index = new Map();
    for (const run of report.runs) index.set(run.route, [...(index.get(run.route) ?? []), run]);
    byRoute.set(report.runs, index);
  }
  return index;
}

/** The order of scenario runs in a report: by route, scenario, target (a stable sort keeps the rest in run order). */
export const compareScenarioRuns = (
  a: Pick<ScenarioRun, 'route' | 'scenario' | 'target'>,
  b: Pick<ScenarioRun, 'route' | 'scenario' | 'target'>,
): number => compare(a.route, b.route) || compare(a.scenario, b.scenario) || compare(a.target, b.target);

/** Each verdict in report form, project-relative and sorted; ids are `scenario@target` (`#n` on a repeat). */
export function scenarioRuns(verdicts: CellVerdict[], root: string): ScenarioRun[] {
  const sorted = [...verdicts].sort(compareScenarioRuns);
  const seen = new Map<string, number>();
  return sorted.map((v) => {
    let id = `${v.scenario}@${v.target}`;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    if (n > 1) id += `#${n}`;
    const checks = v.checks
      // A blank n/a (the scenario does not apply to this target at all) says nothing; leave it out.
      .filter((c) => !(c.status === 'n/a' && c.detail === ''))
      .sort((a, b) => BEHAVIOURS.indexOf(a.behaviour) - BEHAVIOURS.indexOf(b.behaviour) || compare(a.detail, b.detail))
      .map((c): ReportCheck => {
        const check: ReportCheck = { behaviour: c.behaviour, status: c.status, detail: c.detail };
        // Findings repeat the detail in structured form; they are kept where a reader needs the why.
        if (c.findings?.length && (c.status === 'fail' || c.status === 'warn'))
          check.findings = c.findings.filter((f) => f.status !== 'pass');
        return check;
      });
    const exchanges = [...v.exchanges].sort((a, b) => a.call - b.call || a.attempt - b.attempt);
    const cell: ScenarioRun = {
      id,
      scenario: v.scenario,
      target: v.target,
      route: v.route,
      tier: v.tier,
      family: v.family,
      status: v.status,
      checks,
      exchanges,
    };
    if (v.fixture) cell.fixture = fixtureRef(v.fixture, root);
    return cell;
  });
}

function routeRow(route: string, runs: ScenarioRun[]): RouteRow {
  const provenance = { recorded: 0, synthesized: 0, imported: 0, none: 0 };
  // Runs whose scenario does not apply to the target never touched a fixture; they say nothing about provenance.
  for (const c of runs.filter((c) => c.status !== 'n/a' || c.exchanges.length > 0))
    provenance[c.fixture?.provenance ?? 'none'] += 1;
  const matrix = BEHAVIOURS.map((behaviour) => matrixCell(behaviour, runs));
  return {
    route,
    status: aggregateStatus(matrix.map((m) => m.status)),
    tiers: uniqueSorted(runs.map((c) => c.tier)),
    families: uniqueSorted(runs.map((c) => c.family)),
    providers: uniqueSorted(runs.map((c) => c.target)),
    provenance,
    matrix,
  };
}

function matrixCell(behaviour: Behaviour, runs: ScenarioRun[]): MatrixCell {
  const statuses = runs.flatMap((run) => run.checks.filter((c) => c.behaviour === behaviour).map((c) => c.status));
  return { behaviour, status: aggregateStatus(statuses), checks: statuses.length };
}

export function countStatuses(statuses: CheckStatus[]): StatusCounts {
  const count = (s: CheckStatus) => statuses.filter((x) => x === s).length;
  return { total: statuses.length, pass: count('pass'), warn: count('warn'), fail: count('fail'), na: count('n/a') };
}

function fixtureRef(fixture: { path: string; provenance: string }, root: string): FixtureRef {
  const provenance: Provenance =
    fixture.provenance === 'recorded' || fixture.provenance === 'imported' ? fixture.provenance : 'synthesized';
  return { path: displayPath(fixture.path, root), provenance };
}

/** Project-relative, forward-slashed paths: the report must not carry the machine it ran on. */
export function displayPath(path: string, root: string): string {
  if (!isAbsolute(path)) return path.split(sep).join('/');
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return path.split(sep).join('/');
  return rel.split(sep).join('/');
}

function uniqueSorted(values: string[]): string[] {
  return [...new Set(values)].sort(compare);
}

/** Code-point order, not locale order: the same on every machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
