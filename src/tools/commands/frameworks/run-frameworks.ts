import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureMatrixPackages, matrixModulesDir } from '../../../shared/matrix-packages/matrix-packages.js';
import { projectRoot } from '../../../shared/project-root.js';
import { runAgent } from '../../services/agent-runner/run-agent.js';
import { loadMatrixInputs } from '../../services/matrix/run-matrix.js';
import type { FrameworkMatrix } from '../../services/framework-results/framework-matrix.js';
import { agentArgv, frameworkRuns, type FrameworkRun } from './framework-runs.js';
import { judgeFrameworkRun } from './framework-verdict.js';
import type { FrameworkRow } from '../../services/framework-results/framework-row.js';
import { pythonEnv, pythonPackageVersion, type PythonEnv } from './python-venv.js';

export interface RunFrameworksOptions {
  /** Only the rows and pairs marked `fast`, not streamed (`npm test`). */
  fast?: boolean;
  /** Only these framework ids. */
  only?: string[];
  timeoutMs?: number;
  /** Agents run at once; each is its own process. */
  concurrency?: number;
  onRow?: (row: FrameworkRow, done: number, total: number) => void;
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
  const runs = frameworkRuns(matrix, { fast: options.fast }).filter(
    (r) => !options.only?.length || options.only.includes(r.framework.id),
  );
  // The node agents import their frameworks by name, from the matrices' packages (installed here on first use).
  if (runs.some((r) => r.framework.language === 'node')) ensureMatrixPackages();
  const pythons = new Map<string, PythonEnv>();
  const pythonFor = (requirements: string) => {
    if (!pythons.has(requirements)) pythons.set(requirements, pythonEnv(requirements));
    return pythons.get(requirements)!;
  };
  const rows: FrameworkRow[] = new Array(runs.length);
  let next = 0;
  let done = 0;

  async function one(run: FrameworkRun): Promise<FrameworkRow> {
    let command: string[];
    let versions: { framework: string; package: string };
    if (run.framework.language === 'python') {
      const env = pythonFor(run.framework.requirements ?? '');
      if ('skipped' in env || !(run.provider.agent ?? run.framework.agent).length) {
        return skippedRow(run, 'skipped' in env ? env.skipped : 'no agent for this row');
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
    });
    return judgeFrameworkRun(run, result, versions);
  }

  async function worker(): Promise<void> {
    while (next < runs.length) {
      const at = next++;
      const row = await one(runs[at]!);
      rows[at] = row;
      options.onRow?.(row, ++done, runs.length);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
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
