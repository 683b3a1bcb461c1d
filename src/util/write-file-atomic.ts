import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The temp name a write uses beside `file`; the recorder's stale-temp sweep matches the same pattern. */
export function atomicTempName(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
}

/**
 * Writes to a temp file beside the target, fsyncs, then renames over it: a reader (or a crash)
 * sees the old file or the new one, never half of one. `data` may be pieces, so a large fixture
 * streams to disk instead of being joined in memory first.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<string>): void {
  const temp = atomicTempName(file);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w');
    if (typeof data === 'string' || data instanceof Uint8Array) writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    else for (const piece of data) writeSync(fd, piece);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
}
