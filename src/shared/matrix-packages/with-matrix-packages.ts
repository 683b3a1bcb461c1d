import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureMatrixPackages } from './matrix-packages.js';

/**
 * `node with-matrix-packages.js [BIN ARGS...]`: installs the matrices' packages when they are missing (one line says
 * so), then runs BIN from their install with ARGS (`npm run mutate` runs Stryker this way) and exits with its code.
 */
const [bin, ...args] = process.argv.slice(2);
let modules: string;
try {
  modules = ensureMatrixPackages();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
}
if (bin) {
  const run = spawnSync(join(modules, '.bin', bin), args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.error) process.stderr.write(`${bin}: ${run.error.message}\n`);
  process.exit(run.status ?? 1);
}
