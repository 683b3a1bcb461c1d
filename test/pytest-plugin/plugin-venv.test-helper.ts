import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * A Python that runs the pytest plugin: a venv with `pip install ./python` done (the plugin by its pytest11 entry
 * point, as a user gets it), or the reason there is none, printed by the caller as a skip. `source` is the fallback
 * where pip cannot install but the machine's own pytest (8 or later) exists: the plugin from python/src with -p.
 */
export type PluginPython =
  { python: string; mode: 'installed' } | { python: string; mode: 'source' } | { skipped: string };

export const PLUGIN_DIR = join(projectRoot(), 'python');

/** What pip installs from python/: pyproject.toml and src/ (not caches or build output; tests and examples run in place). */
function packageFiles(dir = join(PLUGIN_DIR, 'src')): string[] {
  const files = readdirSync(dir).flatMap((name) => {
    if (/^(__pycache__|.*\.egg-info)$/.test(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? packageFiles(path) : [path];
  });
  return dir === join(PLUGIN_DIR, 'src') ? [join(PLUGIN_DIR, 'pyproject.toml'), ...files] : files;
}

function hashOf(extra: string[]): string {
  const hash = createHash('sha256');
  for (const file of [...packageFiles(), ...extra].sort())
    hash.update(relative(PLUGIN_DIR, file)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
/** pip's own `ERROR:` line (what it could not find), else the last line that mentions an error. */
const pipError = (stderr: string) => {
  const lines = stderr.split('\n');
  const errors = lines.filter((l) => l.startsWith('ERROR:'));
  return lastLine((errors.length ? errors : lines.filter((l) => /error/i.test(l))).join('\n') || stderr);
};

/**
 * A venv under node_modules/.cache holding the plugin (copied out of the tree first, so pip's in-place build writes
 * nothing into python/) and `requirements`, made once per content hash. pip reads the machine's own index; any
 * missing piece is a reason, never an error.
 */
export function pluginPython(name: string, requirements?: string): PluginPython {
  const probe = spawnSync('python3', ['-c', 'import sys, venv; print(sys.version_info >= (3, 9))'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) return { skipped: 'python3 with the venv module is not installed' };
  if (probe.stdout.trim() !== 'True') return { skipped: 'python3 is older than 3.9' };
  const hash = hashOf(requirements ? [requirements] : []);
  const dir = join(projectRoot(), 'node_modules', '.cache', 'reasoning-replay', `${name}-${hash}`);
  const python = join(dir, 'bin', 'python');
  const done = join(dir, '.installed');
  if (existsSync(done)) return { python, mode: 'installed' };
  rmSync(dir, { recursive: true, force: true });
  const made = spawnSync('python3', ['-m', 'venv', dir], { encoding: 'utf8' });
  if (made.status !== 0) return { skipped: `python3 -m venv failed: ${lastLine(made.stderr)}` };
  const copy = mkdtempSync(join(tmpdir(), 'rr-python-plugin-'));
  try {
    for (const file of packageFiles()) cpSync(file, join(copy, relative(PLUGIN_DIR, file)), { recursive: true });
    const pip = spawnSync(
      python,
      ['-m', 'pip', 'install', '--retries', '0', '-q', copy, ...(requirements ? ['-r', requirements] : [])],
      { encoding: 'utf8', timeout: 300_000 },
    );
    if (pip.status !== 0) {
      const why = pip.error ? pip.error.message : pipError(pip.stderr);
      if (requirements) return { skipped: `pip could not install ${relative(projectRoot(), requirements)}: ${why}` };
      return machinePytest(`pip could not install python/ from this machine's index: ${why}`);
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  writeFileSync(done, new Date().toISOString() + '\n');
  return { python, mode: 'installed' };
}

/** The machine's own python3 and pytest, the plugin from source; else the reason neither way works. */
function machinePytest(why: string): PluginPython {
  const probe = spawnSync('python3', ['-c', 'import pytest; print(int(pytest.__version__.split(".")[0]) >= 8)'], {
    encoding: 'utf8',
  });
  if (probe.status === 0 && probe.stdout.trim() === 'True') return { python: 'python3', mode: 'source' };
  return { skipped: `${why}; and python3 has no pytest 8 or later to run the plugin from source` };
}
