import { BEHAVIOURS, type Behaviour, type ConformanceRun } from '../../../judge/conformance/verdict.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { compareScenarioRuns, reportFromScenarioRuns } from '../../services/report/build-compatibility-report.js';
import type { CompatibilityReport } from '../../services/report/compatibility-report.js';
import { sameRun, type ShardSet } from './read-shard-dir.js';
import type { CheckShardFile } from '../../services/shards/shard-file.js';

export interface MergedCheck {
  report: CompatibilityReport;
  /** What the unsharded check would exit with: 1 on a failing cell, an untested route, a harmful table change, or
   * (under --strict) a warning or an operation not judged. */
  failed: boolean;
  strict: boolean;
  notJudged: NonNullable<ConformanceRun['notJudged']>;
  scenarioRuns: number;
}

const short = (sha: string) => sha.slice(0, 12);

/**
 * Joins the shards of one `check --shard i/N` into the report the unsharded check builds: the same scenario runs,
 * sorted the same way, through the same report builder, so every file written from it is the same bytes.
 */
export function mergeCheckShards(set: ShardSet<CheckShardFile>, dir: string): MergedCheck {
  const first = set.shards[0]!.data;
  sameRun(set, [
    {
      pointer: '/matrix/routesSha256',
      value: (f) => [f.matrix.routesFile, f.matrix.routesSha256],
      differs: (other) =>
        `was made from another route table than ${other} (${first.matrix.routesFile}, sha256 ${short(first.matrix.routesSha256)}…)`,
    },
    {
      pointer: '/matrix/base',
      value: (f) => f.matrix.base ?? null,
      differs: (other) =>
        `was gated against another base than ${other} (${first.matrix.base ? `${first.matrix.base.ref} at ${short(first.matrix.base.commit)}` : 'no --base'})`,
    },
    {
      pointer: '/matrix/options',
      value: (f) => f.matrix.options,
      differs: (other) => `ran with other options than ${other} (${JSON.stringify(first.matrix.options)})`,
    },
    {
      pointer: '/matrix/scenarioRunsSha256',
      value: (f) => [f.matrix.scenarioRuns, f.matrix.scenarioRunsSha256],
      differs: (other) =>
        `split another matrix than ${other} (${first.matrix.scenarioRuns} scenario runs): other provider specs or scenarios, another commit?`,
    },
    {
      pointer: '',
      value: (f) => [f.routeOrder, f.untestedRoutes, f.harmFails ?? null, f.realWorld ?? null],
      differs: (other) => `disagrees with ${other} on the table's routes or the real-world cases: another commit?`,
    },
  ]);
  const owner = new Map<string, string>();
  for (const { file, data } of set.shards) {
    for (const run of data.runs) {
      const seen = owner.get(run.id);
      if (seen)
        throw new InputError(
          file,
          '/runs',
          `repeats scenario run ${run.id}, also in ${seen}`,
          'each scenario run belongs to one shard: were these files written by the same version?',
        );
      owner.set(run.id, file);
    }
  }
  if (owner.size !== first.matrix.scenarioRuns)
    throw new InputError(
      dir,
      '',
      `the shards hold ${owner.size} of the matrix's ${first.matrix.scenarioRuns} scenario runs`,
      'were these files written by the same version?',
    );
  // Array.prototype.sort is stable, and no two runs share route, scenario and target: the order is the unsharded one.
  const runs = set.shards.flatMap((s) => s.data.runs).sort(compareScenarioRuns);
  const report = reportFromScenarioRuns(runs, first.matrix.routesFile, {
    routeOrder: first.routeOrder,
    untestedRoutes: first.untestedRoutes,
  });
  if (first.realWorld) report.realWorld = first.realWorld;
  if (first.suites) report.suites = first.suites;
  const notJudged = mergeNotJudged(set.shards.map((s) => s.data.notJudged));
  const strict = first.matrix.options.strict;
  const failed =
    report.summary.verdict === 'fail' ||
    first.harmFails === true ||
    (strict && (report.summary.runs.warn > 0 || notJudged.length > 0));
  return { report, failed, strict, notJudged, scenarioRuns: runs.length };
}

/** Operations not judged, summed over the shards; behaviours in their canonical order. */
function mergeNotJudged(parts: CheckShardFile['notJudged'][]): NonNullable<ConformanceRun['notJudged']> {
  const by = new Map<string, { behaviours: Set<Behaviour>; cells: number }>();
  for (const n of parts.flat()) {
    const entry = by.get(n.operation) ?? { behaviours: new Set<Behaviour>(), cells: 0 };
    n.behaviours.forEach((b) => entry.behaviours.add(b));
    entry.cells += n.cells;
    by.set(n.operation, entry);
  }
  return [...by]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([operation, n]) => ({
      operation: operation as NonNullable<ConformanceRun['notJudged']>[number]['operation'],
      behaviours: BEHAVIOURS.filter((b) => n.behaviours.has(b)),
      cells: n.cells,
    }));
}
