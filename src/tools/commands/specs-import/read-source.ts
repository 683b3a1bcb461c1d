import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { fileUrl, type PinnedDefinition } from './definitions.js';
import { sha256Text } from './distilled.js';

/** The sha256 a pin records for its whole source: over each file's path and sha256, in the pin's order. */
export function sourceSetSha256(pin: Pick<PinnedDefinition, 'files'>): string {
  return sha256Text(pin.files.map((f) => `${f.path}\0${f.sha256}\n`).join(''));
}

/**
 * Puts a pinned definition's files under `<dir>/<id>/`, checked against their sha256: files already
 * there are read, missing ones downloaded from their URL (when `fetchMissing`). A file whose
 * content differs from its pin is bad input: the provider moved, and the pin must be updated.
 */
export async function readPinnedSource(
  id: string,
  pin: PinnedDefinition,
  dir: string,
  options: { fetchMissing: boolean; pinsFile: string },
): Promise<string> {
  const root = join(dir, id);
  for (const [i, file] of pin.files.entries()) {
    const path = join(root, file.path);
    let bytes: Buffer;
    if (existsSync(path)) bytes = readFileSync(path);
    else {
      const url = fileUrl(pin, file);
      if (!options.fetchMissing || !url)
        throw new InputError(
          options.pinsFile,
          `/definitions/${id}/files/${i}`,
          `${path} is missing`,
          url ? `download ${url} there, or run without --from to fetch it` : 'put the pinned file there',
        );
      const response = await fetch(url).catch((err: unknown) => {
        throw new InputError(
          options.pinsFile,
          `/definitions/${id}/files/${i}`,
          `cannot download ${url}: ${err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)}`,
          `without a network, put the file at ${path} and pass --from`,
        );
      });
      if (!response.ok)
        throw new InputError(
          options.pinsFile,
          `/definitions/${id}/files/${i}`,
          `${url} answered ${response.status}`,
          'check the pin',
        );
      bytes = Buffer.from(await response.arrayBuffer());
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    }
    const found = sha256Text(bytes);
    if (found !== file.sha256)
      throw new InputError(
        options.pinsFile,
        `/definitions/${id}/files/${i}/sha256`,
        `${file.path} has sha256 ${found}, the pin says ${file.sha256}`,
        'the source moved: review its changes, then update the pin (commit or version, and sha256)',
      );
  }
  return root;
}
