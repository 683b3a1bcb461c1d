import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cachedDataVersionTag } from 'node:v8';

/**
 * Where compiled code is kept between runs: the system's temp folder, one folder per user (a shared folder another
 * user could write would hand us their code). REASONING_REPLAY_CODE_CACHE_DIR names another; `off` keeps none.
 */
function cacheDir(): string | undefined {
  const named = process.env.REASONING_REPLAY_CODE_CACHE_DIR;
  if (named === 'off') return undefined;
  if (named) return named;
  let user: string;
  try {
    user = String(userInfo().uid);
  } catch {
    return undefined;
  }
  return join(tmpdir(), `reasoning-replay-code-cache-${user}`);
}

/** A folder only this user can write: otherwise another user could hand us compiled code. */
function ownFolder(dir: string): boolean {
  try {
    const stat = statSync(dir);
    return stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
  } catch {
    return true; // made below, with mode 0700
  }
}

/**
 * The cache entry of one file as this process would compile it: the file (path, size and modification time: the
 * build rewrites it) and V8's version and flags (`--interrupt-budget` changes the tag), so no entry is ever
 * offered to a run it was not made for.
 */
function entryFor(file: string, stat: Stats, source: string): string | undefined {
  const dir = cacheDir();
  if (!dir || !ownFolder(dir)) return undefined;
  const { size, mtimeMs } = stat;
  // V8 checks only the source's length: the head and tail of the text stand for it too, without hashing megabytes.
  const key = createHash('sha256')
    .update(`${file}\0${size}\0${mtimeMs}\0${cachedDataVersionTag()}\0`)
    .update(source.slice(0, 65536))
    .update(source.slice(-65536))
    .digest('hex');
  return join(dir, `${key}.bin`);
}

/** Entries kept: one per large module, per build and V8 flag set; older builds' entries go. */
const KEPT_ENTRIES = 12;
/** Below this a module compiles in about a millisecond: `require` it as usual. */
const CACHED_FROM_BYTES = 256 * 1024;

function pruneOldEntries(dir: string): void {
  const entries = readdirSync(dir)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => ({ file: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of entries.slice(KEPT_ENTRIES)) rmSync(file, { force: true });
}

const pending: { entry: string; script: Script }[] = [];
let writeAtExit = false;

/** Writes the code of the modules this run compiled (at exit, so it holds what the run called). */
export function writeCompiledCode(): void {
  for (const { entry, script } of pending.splice(0)) {
    try {
      mkdirSync(dirname(entry), { recursive: true, mode: 0o700 });
      const part = `${entry}.${process.pid}.part`;
      writeFileSync(part, script.createCachedData());
      renameSync(part, entry);
      pruneOldEntries(dirname(entry));
    } catch {
      /* a cache that cannot be written costs the next run its compile, nothing else */
    }
  }
}

const required = (file: string): unknown => createRequire(import.meta.url)(file) as unknown;

/** How a module was loaded: as `require` does (small, or no cache folder), or compiled from kept code or afresh. */
export type CodeCacheUse = 'required' | 'compiled' | 'from-cache' | 'cache-refused';

/**
 * `require(file)` for the build's large generated CommonJS modules (the precompiled validators, megabytes of code),
 * with V8's compiled code kept between runs: Node 20 keeps none, and compiling them cost a tenth of a `check`. The
 * code is written at the end of a run that compiled it, so it holds every validator the run called, not only the
 * module's top level; V8 refuses data made for other code, flags or versions, and the module then compiles as
 * `require` would. The module runs exactly as under `require`: same wrapper, same `require` relative to its file.
 */
export function loadWithCodeCache(file: string): { exports: unknown; use: CodeCacheUse } {
  const stat = statSync(file);
  if (stat.size < CACHED_FROM_BYTES) return { exports: required(file), use: 'required' };
  const source = readFileSync(file, 'utf8');
  const entry = entryFor(file, stat, source);
  if (!entry) return { exports: required(file), use: 'required' };
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(entry);
  } catch {
    /* not cached yet */
  }
  const script = new Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  const compiled = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  compiled.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const use: CodeCacheUse = !cachedData ? 'compiled' : script.cachedDataRejected ? 'cache-refused' : 'from-cache';
  if (use !== 'from-cache') {
    pending.push({ entry, script });
    if (!writeAtExit) {
      writeAtExit = true;
      process.once('exit', writeCompiledCode);
    }
  }
  return { exports: module.exports, use };
}

export const requireWithCodeCache = (file: string): unknown => loadWithCodeCache(file).exports;
