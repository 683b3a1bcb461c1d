import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { asFileWriteError, FileWriteError } from '../errors/file-write-error.js';
import { processAlive } from './process-alive.js';

/** The temp name a write uses beside `file`; removeStaleTemps matches the same pattern. */
export function atomicTempName(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
}

/**
 * Temp files of writers that died between creating and renaming (SIGKILL can land in that
 * window): `.<name>.<pid>.<ms>.tmp` of processes that no longer exist, beside `file`, whatever
 * file they were for (a killed recording of one scenario is cleaned by the next recording of any
 * scenario in that folder). Removed before each write, so litter never outlives the next run, and
 * .gitignore keeps it out of commits meanwhile.
 */
export function removeStaleTemps(file: string): string[] {
  const dir = dirname(file);
  const prefix = '.';
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = name.startsWith(prefix) ? /^\..+\.(\d+)\.\d+\.tmp$/.exec(name) : null;
    if (!m || processAlive(Number(m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Creates `dir` and its parents; a file in the way or a read-only disk is one clear line. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw asFileWriteError(err, dir);
  }
}

function writeAll(fd: number, data: string | Uint8Array | Iterable<string>): void {
  if (typeof data === 'string' || data instanceof Uint8Array)
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
  else for (const piece of data) writeSync(fd, piece);
}

/**
 * Writes to a temp file beside the target, fsyncs, then renames over it: a reader (or a crash)
 * sees the old file or the new one, never half of one. `data` may be pieces, so a large fixture
 * streams to disk instead of being joined in memory first.
 *
 * Only a regular file is ever renamed over. A device, FIFO or socket (`--junit /dev/null`,
 * `--out /dev/stdout`, a named pipe) is written through, as a shell redirect would; a symlink is
 * followed and its target replaced, the link kept. Failures are FileWriteErrors (one line, exit 2).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<string>): void {
  const existing = statOrUndefined(file);
  if (existing?.isDirectory()) throw new FileWriteError(file, 'EISDIR');
  if (existing && !existing.isFile()) {
    let fd: number | undefined;
    try {
      fd = openSync(file, 'w');
      writeAll(fd, data);
    } catch (err) {
      throw asFileWriteError(err, file);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return;
  }
  const target = existing ? realpathSync(file) : file;
  removeStaleTemps(target);
  const temp = atomicTempName(target);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w');
    writeAll(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    try {
      rmSync(temp, { force: true });
    } catch {
      /* the folder itself is unusable (ENOTDIR, EACCES): there is no temp to remove */
    }
    throw asFileWriteError(err, file);
  }
}
