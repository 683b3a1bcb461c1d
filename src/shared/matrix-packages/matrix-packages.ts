import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { MatrixPackagesError } from '../errors/matrix-packages-error.js';
import { processAlive } from '../files/process-alive.js';
import { projectRoot } from '../project-root.js';

/**
 * The matrices' packages: the SDKs and agent frameworks the real-client and framework matrices run (several at
 * two pinned versions under npm aliases), and Stryker for `npm run mutate`. They are a package of their own,
 * test/matrices/package.json with its own lockfile, so the root `npm ci` stays what building, the CLI, the gate,
 * the report and the core tests need. The first command or test that needs them installs them (`npm ci` in
 * test/matrices, printing one line that says so); later runs reuse that install until the lockfile changes.
 */
export const matricesDir = (): string => join(projectRoot(), 'test', 'matrices');
export const matrixModulesDir = (): string => join(matricesDir(), 'node_modules');

/**
 * Folders whose programs import the matrices' packages by name (the framework agents under examples/, the real
 * clients under test/real-clients/): each gets a `node_modules` link to the matrices' install, so Node resolves
 * those names as it always does, walking up from the program, and anything else still from the root install.
 */
export const LINKED_FOLDERS = ['examples', join('test', 'real-clients')] as const;

/** Where caches that must outlive the root `npm ci` live (the Python venvs of the matrices and the pytest plugin). */
export const matrixCacheDir = (): string => join(matricesDir(), '.cache');

/** The names test/matrices/package.json lists: the only names resolved from its install. */
export function matrixPackageNames(dir = matricesDir()): string[] {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  return Object.keys(pkg.devDependencies ?? {});
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`; undefined for relative, absolute and `node:` ids. */
export function packageNameOf(id: string): string | undefined {
  if (/^(\.|\/|[a-z]+:)/i.test(id)) return undefined;
  const parts = id.split('/');
  return id.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const STAMP = '.reasoning-replay-installed';
const lockfileHash = (dir: string) =>
  createHash('sha256')
    .update(readFileSync(join(dir, 'package-lock.json')))
    .digest('hex');

/** Whether the install in `dir` is the one its lockfile asks for. */
export function matrixPackagesInstalled(dir = matricesDir()): boolean {
  const stamp = join(dir, 'node_modules', STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockfileHash(dir);
}

export interface EnsureOptions {
  /** The matrices' package folder and the project root its linked folders sit in (a test hands its own). */
  dir?: string;
  root?: string;
  /** Where the progress line goes (stderr by default). */
  say?: (line: string) => void;
  /** The install command (`npm ci` by default); a test hands a stand-in. */
  install?: (dir: string) => { ok: true } | { why: string };
  /** How long a lock left by a live process is waited for before giving up. */
  waitMs?: number;
}

const npmCi = (dir: string): { ok: true } | { why: string } => {
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', process.stderr, process.stderr],
    shell: process.platform === 'win32',
  });
  if (npm.error) return { why: npm.error.message };
  return npm.status === 0 ? { ok: true } : { why: `npm ci exited ${npm.status}` };
};

const pidIn = (lock: string): number => {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8')) || 0;
  } catch {
    return 0;
  }
};

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Links each of LINKED_FOLDERS' `node_modules` to the install, unless a real folder already stands there. */
function linkFolders(root: string, modules: string): void {
  for (const folder of LINKED_FOLDERS) {
    const link = join(root, folder, 'node_modules');
    let stat;
    try {
      stat = lstatSync(link);
    } catch {
      stat = undefined;
    }
    if (stat?.isSymbolicLink() && existsSync(link)) continue;
    if (stat && !stat.isSymbolicLink()) continue;
    if (stat) rmSync(link, { force: true });
    symlinkSync(relative(dirname(link), modules), link, 'junction');
  }
}

/**
 * Installs the matrices' packages when their install is missing or older than their lockfile, then links the
 * folders that use them. Safe to call from many processes at once: one installs (a lock folder holds its pid),
 * the others wait for it. Returns the install's node_modules folder; throws when npm cannot install.
 */
export function ensureMatrixPackages(options: EnsureOptions = {}): string {
  const dir = options.dir ?? matricesDir();
  const root = options.root ?? projectRoot();
  const modules = join(dir, 'node_modules');
  const lock = join(dir, '.installing');
  const waitUntil = Date.now() + (options.waitMs ?? 15 * 60_000);
  while (!matrixPackagesInstalled(dir)) {
    try {
      mkdirSync(lock);
    } catch {
      const owner = pidIn(lock);
      // A lock whose owner died (or never wrote its pid within a minute) is taken over.
      let stale: boolean;
      try {
        stale = owner ? !processAlive(owner) : Date.now() - statSync(lock).mtimeMs > 60_000;
      } catch {
        continue; // the lock went away between mkdir and stat: try again
      }
      if (stale) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > waitUntil)
        throw new MatrixPackagesError(
          `the matrices' packages: another process (pid ${owner}) is still installing them in ${dir}`,
        );
      else sleep(500);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (matrixPackagesInstalled(dir)) break;
      (options.say ?? ((line) => process.stderr.write(line + '\n')))(
        `installing the matrices' packages (first use) into ${relative(root, modules) || modules} ...`,
      );
      const done = (options.install ?? npmCi)(dir);
      if ('why' in done)
        throw new MatrixPackagesError(
          `the matrices' packages could not be installed in ${dir}: ${done.why} (try: npm ci --prefix ${relative(process.cwd(), dir) || '.'})`,
        );
      writeFileSync(join(modules, STAMP), lockfileHash(dir) + '\n');
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  linkFolders(root, modules);
  return modules;
}
