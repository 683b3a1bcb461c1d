import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/shared/project-root.js';

/** Python with the matrix's SDKs, or the reason there is none (printed by the caller as a skip). */
export type PythonClients = { python: string } | { skipped: string };

const REQUIREMENTS = join(projectRoot(), 'test', 'real-clients', 'clients', 'requirements.txt');

/**
 * A venv under node_modules/.cache holding the pinned Python SDKs, made once per requirements file
 * (its hash names the folder). pip reads the machine's own index configuration; `--retries 0` keeps
 * an unreachable index from stalling the suite. Any missing piece is a reason, never an error.
 */
export function pythonClients(): PythonClients {
  const probe = spawnSync('python3', ['-c', 'import sys, venv; print(sys.version_info >= (3, 9))'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) return { skipped: 'python3 with the venv module is not installed' };
  if (probe.stdout.trim() !== 'True') return { skipped: 'python3 is older than 3.9' };
  const hash = createHash('sha256').update(readFileSync(REQUIREMENTS)).digest('hex').slice(0, 12);
  const dir = join(projectRoot(), 'node_modules', '.cache', 'reasoning-replay', `python-clients-${hash}`);
  const python = join(dir, 'bin', 'python');
  const done = join(dir, '.installed');
  if (existsSync(done)) return { python };
  rmSync(dir, { recursive: true, force: true });
  const made = spawnSync('python3', ['-m', 'venv', dir], { encoding: 'utf8' });
  if (made.status !== 0) return { skipped: `python3 -m venv failed: ${lastLine(made.stderr)}` };
  const pip = spawnSync(python, ['-m', 'pip', 'install', '--retries', '0', '-q', '-r', REQUIREMENTS], {
    encoding: 'utf8',
    timeout: 240_000,
  });
  if (pip.status !== 0) {
    const why = pip.error
      ? pip.error.message
      : lastLine(
          pip.stderr
            .split('\n')
            .filter((l) => /error/i.test(l))
            .join('\n') || pip.stderr,
        );
    return {
      skipped: `pip could not install ${REQUIREMENTS.split('/').slice(-3).join('/')} from this machine's index: ${why}`,
    };
  }
  writeFileSync(done, new Date().toISOString() + '\n');
  return { python };
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
