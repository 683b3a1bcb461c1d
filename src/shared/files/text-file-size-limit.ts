import { statSync } from 'node:fs';
import { constants } from 'node:buffer';
import { InputError } from '../errors/input-error.js';

/**
 * The largest file read whole as text: V8's longest string (2^29 - 24 characters on 64-bit Node
 * 20). UTF-8 never decodes to more characters than it has bytes, so a file this size or smaller
 * always fits; a larger one failed as `cannot read (ERR_STRING_TOO_LONG)`, which names neither the
 * size nor what to do (issue 27).
 */
export const MAX_TEXT_FILE_BYTES = constants.MAX_STRING_LENGTH;

/** `629145600 bytes (600.0 MiB)`; small sizes in bytes only. */
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes} bytes (${(bytes / (1024 * 1024)).toFixed(1)} MiB)` : `${bytes} bytes`;

/**
 * Refuses a file larger than `maxBytes` before it is read (exit 2, one line with its size and the
 * limit). A file that cannot be stat'ed passes: the read that follows reports why, as before.
 */
export function refuseOversizedTextFile(file: string, maxBytes: number = MAX_TEXT_FILE_BYTES, what = 'file'): void {
  let bytes: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return;
    bytes = stat.size;
  } catch {
    return;
  }
  if (bytes <= maxBytes) return;
  throw new InputError(
    file,
    '',
    `the ${what} is ${size(bytes)}, over the limit of ${size(maxBytes)} for a file read as one text (V8's longest string)`,
    'split it into smaller files, or trim it',
  );
}
