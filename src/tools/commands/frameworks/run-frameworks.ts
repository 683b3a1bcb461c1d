import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureMatrixPackages, matrixModulesDir } from '../../../shared/matrix-packages/matrix-packages.js';
import { projectRoot } from '../../../shared/project-root.js';
import { runAgent } from '../../services/agent-runner/run-agent.js';
import { loadMatrixInputs } from '../../services/matrix/run-matrix.js';
import type { FrameworkMatrix } from '../../services/framework-results/framework-matrix.js';
import { agentArgv, frameworkRuns, type FrameworkRun } from './framework-runs.js';
import { faultPairMet, judgeFaultRun, judgeFrameworkRun } from './framework-verdict.js';
import type { FaultCell, FrameworkRow } from '../../services/framework-results/framework-row.js';
import { faultApplies, loadFaultCatalogue, type Fault } from '../../../shared/faults/fault-catalogue.js';
import { pythonEnv, pythonPackageVersion, type PythonEnv } from './python-venv.js';

export interface RunFrameworksOptions {
  /** Only the rows and pairs marked `fast`, not streamed (`npm test`). */
  fast?: boolean;
  /** Only these framework ids. */
  only?: string[];
  timeoutMs?: number;
  /** Agents run at once; each is its own process. */
  concurrency?: number;
  /** The faults column (default on): each row streamed under each fault of its provider (`fast`: the rows marked `fastFaults`, their stream-cut faults). */
  faults?: boolean;
  onRow?: (row: FrameworkRow, done: number, total: number) => void;
  /** One cell of the faults column, as it is judged. */
  onFault?: (key: string, cell: FaultCell, done: number, total: number) => void;
}

/** The installed version of an npm package (or alias) of the matrices' packages, or "unknown". */
export function nodePackageVersion(name: string): string {
  const file = join(matrixModulesDir(), name, 'package.json');
  if (!existsSync(file)) return 'unknown';
  return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
}

/**
 * Runs every agent of the matrix through `run` (runAgent: fresh mocks that follow the client, the
 * SDKs' base-URL variables set), each its own process, and judges each run into a row.
 */
export async function runFrameworks(
  matrix: FrameworkMatrix,
  options: RunFrameworksOptions = {},
): Promise<FrameworkRow[]> {
  const inputs = loadMatrixInputs({});
  const catalogue = loadFaultCatalogue();
  const familyOf = new Map(inputs.specs.map((spec) => [spec.id, spec.family]));
  const faultsOf = (provider: string): Fault[] => {
    const family = familyOf.get(provider);
    return family ? catalogue.faults.filter((f) => faultApplies(f, family, provider)) : [];
  };
  const runs = frameworkRuns(matrix, {
    fast: options.fast,
    ...(options.faults === false ? {} : { faultsOf }),
  }).filter((r) => !options.only?.length || options.only.includes(r.framework.id));
  // The node agents import their frameworks by name, from the matrices' packages (installed here on first use).
  if (runs.some((r) => r.framework.language === 'node')) ensureMatrixPackages();
  const pythons = new Map<string, PythonEnv>();
  const pythonFor = (requirements: string) => {
    if (!pythons.has(requirements)) pythons.set(requirements, pythonEnv(requirements));
    return pythons.get(requirements)!;
  };
  const byName = new Map(catalogue.faults.map((f) => [f.name, f]));
  const outcomes: Array<{ row?: FrameworkRow; cell?: FaultCell }> = new Array(runs.length);
  let next = 0;
  let done = 0;

  async function one(run: FrameworkRun): Promise<{ row?: FrameworkRow; cell?: FaultCell }> {
    let command: string[];
    let versions: { framework: string; package: string };
    if (run.framework.language === 'python') {
      const env = pythonFor(run.framework.requirements ?? '');
      if ('skipped' in env || !(run.provider.agent ?? run.framework.agent).length) {
        const why = 'skipped' in env ? env.skipped : 'no agent for this row';
        if (run.fault && !run.pair) return { cell: { fault: run.fault, outcome: 'skipped', reason: why, requests: 0 } };
        return { row: skippedRow(run, why) };
      }
      command = [env.python, ...agentArgv(run).map((a, i) => (i === 0 ? join(projectRoot(), a) : a))];
      versions = {
        framework: pythonPackageVersion(env.python, run.framework.package),
        package: pythonPackageVersion(env.python, run.provider.package),
      };
    } else {
      command = [process.execPath, ...agentArgv(run).map((a, i) => (i === 0 ? join(projectRoot(), a) : a))];
      versions = {
        framework: nodePackageVersion(run.framework.package),
        package: nodePackageVersion(run.provider.package),
      };
    }
    const result = await runAgent({
      mode: { kind: 'once', argv: command },
      specs: inputs.specs,
      fixtures: inputs.fixtures,
      table: inputs.table,
      scenarios: [],
      timeoutMs: options.timeoutMs ?? 90_000,
      ...(run.fault ? { faults: [byName.get(run.fault)!] } : {}),
    });
    if (!run.fault) return { row: judgeFrameworkRun(run, result, versions) };
    const cell = judgeFaultRun(run, result);
    if (!run.pair) return { cell };
    // A pair judged under a fault: its row is met by the fault's outcome, not by the run's verdict.
    const row = { ...judgeFrameworkRun(run, result, versions), faults: [cell] };
    const { pair, side } = run.pair;
    row.pair = {
      id: pair.id,
      side,
      expected: side === 'bug' ? `poisoned by ${run.fault} (recovers-from-faults fails)` : `survives ${run.fault}`,
      met: faultPairMet(side, cell),
    };
    return { row };
  }

  async function worker(): Promise<void> {
    while (next < runs.length) {
      const at = next++;
      const outcome = await one(runs[at]!);
      outcomes[at] = outcome;
      ++done;
      if (outcome.row) options.onRow?.(outcome.row, done, runs.length);
      if (outcome.cell) options.onFault?.(runs[at]!.key, outcome.cell, done, runs.length);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return withFaultCells(runs, outcomes);
}

/**
 * The rows, each carrying its faults column: a fault run's cell goes to the row of the same framework × provider
 * (the streamed one when it ran, else the other), in run order. A poisoned cell on a row that fails without the
 * fault says so.
 */
export function withFaultCells(
  runs: readonly FrameworkRun[],
  outcomes: ReadonlyArray<{ row?: FrameworkRow; cell?: FaultCell }>,
): FrameworkRow[] {
  const rows = outcomes.flatMap((o) => (o.row ? [o.row] : []));
  runs.forEach((run, i) => {
    const cell = outcomes[i]?.cell;
    if (!cell) return;
    const same = rows.filter(
      (r) => !r.pair && r.framework === run.framework.id && r.provider === run.provider.provider,
    );
    const row = same.find((r) => r.stream) ?? same[0];
    if (!row) return;
    // Damage the row shows without any fault is not the fault's doing alone: say so beside it.
    const own =
      cell.outcome === 'poisoned' && row.verdict === 'fail'
        ? { ...cell, reason: `${cell.reason} (this row fails without the fault too: ${row.rule ?? row.verdict})` }
        : cell;
    row.faults = [...(row.faults ?? []), own];
  });
  return rows;
}

function skippedRow(run: FrameworkRun, why: string): FrameworkRow {
  return {
    key: run.key,
    framework: run.framework.id,
    frameworkName: run.framework.name,
    frameworkVersion: 'not installed',
    provider: run.provider.provider,
    package: run.provider.package,
    packageVersion: 'not installed',
    stream: run.stream,
    verdict: 'skipped',
    reason: why,
    requests: 0,
  };
}
