import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { matrixCacheDir } from '../../../shared/matrix-packages/matrix-packages.js';
import { projectRoot } from '../../../shared/project-root.js';

/** A Python with one requirements file installed, or the reason there is none (shown as a skip). */
export type PythonEnv = { python: string } | { skipped: string };

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

/** Why this machine cannot make a venv (no python3, no venv module, older than 3.9), or undefined when it can. */
export function missingPythonVenv(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import sys, venv; print(sys.version_info >= (3, 9))'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) return 'python3 with the venv module is not installed';
  if (probe.stdout.trim() !== 'True') return 'python3 is older than 3.9';
  return undefined;
}

/**
 * A venv under the matrices' cache (test/matrices/.cache, which the root `npm ci` leaves alone) holding a pinned requirements file, made once per file content
 * (its hash names the folder), from the machine's own pip index. Any missing piece is a reason to
 * skip, never an error: the matrix says which rows it skipped and why.
 */
export function pythonEnv(requirements: string): PythonEnv {
  const file = join(projectRoot(), requirements);
  const missing = missingPythonVenv();
  if (missing) return { skipped: missing };
  const hash = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 12);
  const dir = join(matrixCacheDir(), `python-venv-${hash}`);
  const python = join(dir, 'bin', 'python');
  const failed = join(dir, '.failed');
  if (existsSync(join(dir, '.installed'))) return { python };
  // A failed install is remembered for its requirements: the index will not change within a run.
  if (existsSync(failed)) return { skipped: readFileSync(failed, 'utf8').trim() };
  rmSync(dir, { recursive: true, force: true });
  const made = spawnSync('python3', ['-m', 'venv', dir], { encoding: 'utf8' });
  if (made.status !== 0) return { skipped: `python3 -m venv failed: ${lastLine(made.stderr)}` };
  const pip = spawnSync(python, ['-m', 'pip', 'install', '--retries', '0', '-q', '-r', file], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (pip.status !== 0) {
    const errors = pip.stderr.split('\n').filter((l) => /^ERROR/.test(l));
    const why = pip.error ? pip.error.message : (errors[0] ?? lastLine(pip.stderr));
    const skipped = `pip could not install ${requirements} from this machine's index: ${why}`;
    writeFileSync(failed, skipped + '\n');
    return { skipped };
  }
  writeFileSync(join(dir, '.installed'), new Date().toISOString() + '\n');
  return { python };
}

/** The installed version of a distribution in that Python, or "unknown". */
export function pythonPackageVersion(python: string, distribution: string): string {
  const out = spawnSync(
    python,
    ['-c', 'import sys, importlib.metadata as m; print(m.version(sys.argv[1]))', distribution],
    { encoding: 'utf8' },
  );
  return out.status === 0 ? out.stdout.trim() : 'unknown';
}
