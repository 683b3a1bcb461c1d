import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';
import { matrixCacheDir } from '../../src/shared/matrix-packages/matrix-packages.js';
import { missingPythonVenv } from '../../src/tools/commands/frameworks/python-venv.js';

/**
 * A Python that runs the pytest plugin: a venv with `pip install ./python` done (the plugin by its pytest11 entry
 * point, as a user gets it), or the reason there is none, printed by the caller as a skip. `source` is the fallback
 * where pip cannot install but the machine's own pytest (8 or later) exists: the plugin from python/src with -p.
 */
export type PluginPython =
  { python: string; mode: 'installed' } | { python: string; mode: 'source' } | { skipped: string };

export const PLUGIN_DIR = join(projectRoot(), 'python');

/** What pip installs from python/: pyproject.toml and src/ (not caches or build output; tests and examples run in place). */
function sourceFiles(dir = join(PLUGIN_DIR, 'src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (/^(__pycache__|.*\.egg-info)$/.test(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : [path];
  });
}

function hashOf(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) hash.update(relative(PLUGIN_DIR, file)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
/** pip's own `ERROR:` line (what it could not find), else the last line that mentions an error. */
const pipError = (stderr: string) => {
  const lines = stderr.split('\n');
  const errors = lines.filter((l) => l.startsWith('ERROR:'));
  return lastLine((errors.length ? errors : lines.filter((l) => /error/i.test(l))).join('\n') || stderr);
};

/** pip install into `python`, the plugin copied out of the tree first (pip's in-place build writes nothing into python/). */
function pipInstall(python: string, args: string[]): { ok: true } | { why: string } {
  const pyproject = join(PLUGIN_DIR, 'pyproject.toml');
  const copy = mkdtempSync(join(tmpdir(), 'rr-python-plugin-'));
  try {
    for (const file of [pyproject, ...sourceFiles()]) cpSync(file, join(copy, relative(PLUGIN_DIR, file)));
    const pip = spawnSync(python, ['-m', 'pip', 'install', '--retries', '0', '-q', ...args, copy], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    return pip.status === 0 ? { ok: true } : { why: pip.error ? pip.error.message : pipError(pip.stderr) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * A venv under the matrices' cache (test/matrices/.cache, which the root `npm ci` leaves alone) holding the plugin and `requirements`. The venv is made once per pyproject.toml
 * and requirements (the slow part: the dependencies); when only the plugin's source changed, just the plugin is
 * reinstalled. pip reads the machine's own index; any missing piece is a reason, never an error.
 */
export function pluginPython(name: string, requirements?: string): PluginPython {
  const missing = missingPythonVenv();
  if (missing) return { skipped: missing };
  const pyproject = join(PLUGIN_DIR, 'pyproject.toml');
  const dir = join(matrixCacheDir(), `${name}-${hashOf([pyproject, ...(requirements ? [requirements] : [])])}`);
  const python = join(dir, 'bin', 'python');
  const done = join(dir, '.installed');
  const source = hashOf(sourceFiles());
  if (existsSync(done)) {
    if (readFileSync(done, 'utf8') === source) return { python, mode: 'installed' };
    const again = pipInstall(python, ['--no-deps', '--force-reinstall']);
    if ('why' in again)
      return requirements
        ? { skipped: `pip could not reinstall python/ beside ${relative(projectRoot(), requirements)}: ${again.why}` }
        : machinePytest(`pip could not reinstall python/: ${again.why}`);
    writeFileSync(done, source);
    return { python, mode: 'installed' };
  }
  rmSync(dir, { recursive: true, force: true });
  const made = spawnSync('python3', ['-m', 'venv', dir], { encoding: 'utf8' });
  if (made.status !== 0) return { skipped: `python3 -m venv failed: ${lastLine(made.stderr)}` };
  const installed = pipInstall(python, requirements ? ['-r', requirements] : []);
  if ('why' in installed) {
    if (requirements)
      return { skipped: `pip could not install ${relative(projectRoot(), requirements)}: ${installed.why}` };
    return machinePytest(`pip could not install python/ from this machine's index: ${installed.why}`);
  }
  writeFileSync(done, source);
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
