import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI the way a user does (a child process on bin/reasoning-replay.js); `npm test`
 * builds before vitest runs, so tests see the code they ship.
 */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): CliResult {
  const result = spawnSync(process.execPath, [join(projectRoot(), 'bin', 'reasoning-replay.js'), ...args], {
    cwd: options.cwd ?? projectRoot(),
    env: { ...process.env, CI: 'true', ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
