import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the built CLI as a user would (`node bin/reasoning-replay.js ...`). Asynchronous on
 * purpose: the fake provider lives in the test's own event loop and must keep answering.
 */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): { child: ChildProcess; result: Promise<CliResult> } {
  const root = projectRoot();
  if (!existsSync(join(root, 'dist', 'src', 'tools', 'cli', 'main.js')))
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests (npm test does)');
  const child = spawn(process.execPath, [join(root, 'bin', 'reasoning-replay.js'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, result };
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return spawnCli(args, env).result;
}
