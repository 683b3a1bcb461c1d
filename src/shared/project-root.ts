import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvariantError } from './errors/invariant-error.js';

let cached: string | undefined;

/**
 * The package root, found by walking up from this module. Code runs both from `src/` (vitest, tsx)
 * and from `dist/src/` (the built CLI), so a fixed `../..` would be wrong in one of them.
 */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'reasoning-replay') {
      cached = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new InvariantError('reasoning-replay: cannot find the package root above ' + import.meta.url);
    dir = parent;
  }
}

export function specsDir(): string {
  return join(projectRoot(), 'specs');
}

export function fixturesDir(): string {
  return join(projectRoot(), 'fixtures', 'providers');
}
