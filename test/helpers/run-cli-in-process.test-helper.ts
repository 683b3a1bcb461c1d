import { main } from '../../src/tools/cli/main.js';
import type { CliResult } from './run-cli-sync.test-helper.js';

let running = false;

/**
 * The CLI's own entry point, main() (what bin/reasoning-replay.js calls after its process-level set-up), run in this
 * process with its output captured: for tests of what a command decides, writes and prints, where the process
 * boundary is not what they test. It saves a Node start and an import of the whole CLI per call, and repeated runs
 * share compiled code. Tests of the process itself (bin/ unbuilt, a closed pipe, the tier-up flag, signals, an agent
 * as a child) keep spawning bin/ (run-cli-sync / run-cli).
 *
 * `cwd` and `env` hold for the call and are put back after; calls must not overlap (a file's tests run one by one).
 * An error main() throws is exit 70 with its stack on stderr, as bin/ reports it.
 */
export async function runCliInProcess(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  if (running) throw new Error('runCliInProcess: calls must not overlap (cwd, env and output are process-wide)');
  running = true;
  const saved = { cwd: process.cwd(), env: { ...process.env } };
  const written = { stdout: '', stderr: '' };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const capture = (stream: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  try {
    for (const [key, value] of Object.entries({ CI: 'true', ...options.env })) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    if (options.cwd) process.chdir(options.cwd);
    process.stdout.write = capture('stdout');
    process.stderr.write = capture('stderr');
    let code: number;
    try {
      code = await main(args);
    } catch (err) {
      written.stderr += `reasoning-replay: internal error: ${(err as Error)?.stack ?? String(err)}\n`;
      code = 70;
    }
    return { code, ...written };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    process.chdir(saved.cwd);
    for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
    Object.assign(process.env, saved.env);
    running = false;
  }
}
