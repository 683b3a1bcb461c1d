import { InputError } from './input-error.js';
import { shownFileName } from '../files/shown-file-name.js';

/**
 * What a failed file-system call means to the person who named the path. A write that cannot
 * happen (a full disk, a read-only folder, a file where a folder is expected, a directory as the
 * target) is one clear line and exit 2, never an errno stack trace.
 */
const MEANING: Record<string, [problem: string, hint?: string]> = {
  ENOSPC: ['the disk is full', 'free some space and run again; the previous file, if any, is untouched'],
  EDQUOT: ['the disk quota is exhausted', 'free some space and run again; the previous file, if any, is untouched'],
  EROFS: ['the file system is read-only', 'write somewhere writable'],
  EACCES: ['permission denied', 'check the permissions of the file and its folder'],
  EPERM: ['the operation is not permitted', 'check the permissions of the file and its folder'],
  ENOTDIR: ['part of the path is a file, not a folder', 'point at a folder (or a new path)'],
  EEXIST: ['a file stands where a folder is expected', 'point at a folder (or a new path)'],
  EISDIR: ['is a directory, not a file', 'name a file inside it'],
  EBUSY: [
    'is busy or a mount point (a directory such as "/" cannot be replaced by a file)',
    'name a file, not a folder',
  ],
  ENOENT: ['the folder does not exist', 'create it first, or name an existing folder'],
  ENAMETOOLONG: ['the path is too long', 'use a shorter path'],
  EMFILE: ['too many open files', 'raise the open-file limit (ulimit -n)'],
  EIO: ['an input/output error occurred', 'check the disk'],
  EFBIG: ['the file is too large for this file system', 'write somewhere else'],
  ELOOP: ['the path has a symbolic link loop', 'fix the link'],
};

export class FileWriteError extends InputError {
  /** `hint` replaces the code's own when the caller knows better what to do (a spool folder: TMPDIR). */
  constructor(path: string, code: string, detail?: string, hint?: string) {
    const [problem, codeHint] = MEANING[code] ?? [`cannot write (${code})`];
    super(path, '', detail ? `${problem} (${detail})` : problem, hint ?? codeHint);
  }
}

/** The errno code of a Node file-system error, when `err` is one. */
export function fsErrorCode(err: unknown): string | undefined {
  const e = err as NodeJS.ErrnoException | null;
  return e && typeof e === 'object' && typeof e.code === 'string' && typeof e.syscall === 'string' && e.code in MEANING
    ? e.code
    : undefined;
}

/** An InputError naming `path` (or the path the error names) for a file-system error; anything else as is. */
export function asFileWriteError(err: unknown, path?: string): unknown {
  const code = fsErrorCode(err);
  if (!code) return err;
  const e = err as NodeJS.ErrnoException;
  return new FileWriteError(
    path ?? e.path ?? '(a file)',
    code,
    e.syscall && path && e.path && e.path !== path ? `${e.syscall} ${shownFileName(e.path)}` : undefined,
  );
}
