import { isAbsolute, relative, sep } from 'node:path';
import { aggregateStatus, BEHAVIOURS, type Behaviour, type CellVerdict, type CheckStatus, type ConformanceRun } from '../conformance/verdict.js';
import { projectRoot } from '../project-root.js';
import type { CompatibilityReport, Decision, FixtureRef, MatrixCell, RouteRow, ScenarioCell, StatusCounts } from './compatibility-report.js';

export interface BuildReportOptions {
  /** Route ids in table order (first match wins, so that order is how people read the table). Unlisted routes follow, sorted. */
  routeOrder?: string[];
  source?: CompatibilityReport['source'];
  /** Paths inside this directory are written relative to it; defaults to the project root. */
  root?: string;
  /** Routes of the table that no provider spec resolves to: nothing tested them, and the verdict says so. */
  untestedRoutes?: string[];
}

/**
 * Aggregates a run into the report. A route x behaviour cell fails when any scenario check for that
 * behaviour failed on that route, passes when some passed and none failed, and is n/a otherwise.
 * Everything is sorted, and the run's timing is left out, so equal runs give equal reports.
 */
export function buildCompatibilityReport(run: ConformanceRun, options: BuildReportOptions = {}): CompatibilityReport {
  const root = options.root ?? projectRoot();
  const cells = scenarioCells(run.cells, root);
  const order = options.routeOrder ?? [];
  const rank = (route: string): number => {
    const i = order.indexOf(route);
    return i === -1 ? order.length : i;
  };
  const routeIds = [...new Set(cells.map((c) => c.route))].sort((a, b) => rank(a) - rank(b) || compare(a, b));
  const routes = routeIds.map((route) => routeRow(route, cells.filter((c) => c.route === route)));
  const matrix = countStatuses(routes.flatMap((r) => r.matrix.map((m) => m.status)));
  const scenarioCounts = countStatuses(cells.map((c) => c.status));
  const untested = [...(options.untestedRoutes ?? [])].sort((a, b) => rank(a) - rank(b) || compare(a, b));
  return {
    reportVersion: 1,
    routesFile: displayPath(run.routesFile, root),
    source: options.source ?? 'matrix',
    behaviours: [...BEHAVIOURS],
    summary: {
      verdict: matrix.fail > 0 || scenarioCounts.fail > 0 || untested.length > 0 ? 'fail' : 'pass',
      routes: routes.length,
      untestedRoutes: untested,
      providers: uniqueSorted(cells.map((c) => c.target)),
      scenarios: uniqueSorted(cells.map((c) => c.scenario)),
      matrix,
      scenarioCells: scenarioCounts,
    },
    routes,
    cells,
  };
}

function scenarioCells(verdicts: CellVerdict[], root: string): ScenarioCell[] {
  const sorted = [...verdicts].sort((a, b) => compare(a.route, b.route) || compare(a.scenario, b.scenario) || compare(a.target, b.target));
  const seen = new Map<string, number>();
  return sorted.map((v) => {
    let id = `${v.scenario}@${v.target}`;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    if (n > 1) id += `#${n}`;
    const checks = [...v.checks]
      .sort((a, b) => BEHAVIOURS.indexOf(a.behaviour) - BEHAVIOURS.indexOf(b.behaviour) || compare(a.detail, b.detail))
      .map((c) => ({ behaviour: c.behaviour, status: c.status, detail: c.detail }));
    const exchanges = [...v.exchanges].sort((a, b) => a.call - b.call || a.attempt - b.attempt);
    const cell: ScenarioCell = { id, scenario: v.scenario, target: v.target, route: v.route, tier: v.tier, family: v.family, status: v.status, checks, exchanges };
    if (v.fixture) cell.fixture = fixtureRef(v.fixture, root);
    return cell;
  });
}

function routeRow(route: string, cells: ScenarioCell[]): RouteRow {
  const provenance = { recorded: 0, synthesized: 0, none: 0 };
  // Cells whose scenario does not apply to the target never touched a fixture; they say nothing about provenance.
  for (const c of cells.filter((c) => c.status !== 'n/a' || c.exchanges.length > 0)) provenance[c.fixture?.provenance ?? 'none'] += 1;
  return {
    route,
    tiers: uniqueSorted(cells.map((c) => c.tier)),
    families: uniqueSorted(cells.map((c) => c.family)),
    providers: uniqueSorted(cells.map((c) => c.target)),
    provenance,
    matrix: BEHAVIOURS.map((behaviour) => matrixCell(behaviour, cells)),
  };
}

function matrixCell(behaviour: Behaviour, cells: ScenarioCell[]): MatrixCell {
  const decisions: Decision[] = [];
  for (const cell of cells) {
    // A blank n/a (the scenario does not apply to this target at all) explains nothing; leave it out.
    for (const check of cell.checks.filter((c) => c.behaviour === behaviour && !(c.status === 'n/a' && c.detail === ''))) {
      const d: Decision = { cell: cell.id, scenario: cell.scenario, target: cell.target, status: check.status, detail: check.detail };
      if (cell.fixture) d.fixture = cell.fixture;
      decisions.push(d);
    }
  }
  return { behaviour, status: aggregateStatus(decisions.map((d) => d.status)), decisions };
}


export function countStatuses(statuses: CheckStatus[]): StatusCounts {
  return {
    total: statuses.length,
    pass: statuses.filter((s) => s === 'pass').length,
    fail: statuses.filter((s) => s === 'fail').length,
    na: statuses.filter((s) => s === 'n/a').length,
  };
}

function fixtureRef(fixture: { path: string; provenance: 'recorded' | 'synthesized' }, root: string): FixtureRef {
  return { path: displayPath(fixture.path, root), provenance: fixture.provenance };
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
