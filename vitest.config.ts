import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import {
  ensureMatrixPackages,
  matricesDir,
  matrixPackageNames,
  packageNameOf,
} from './src/shared/matrix-packages/matrix-packages.js';
import { SlowestFilesReporter } from './test/helpers/slowest-files.test-helper.js';

/**
 * A test that imports an SDK of the matrices' package by name (src/tools/serve/official-sdks.test.ts) gets it from
 * test/matrices' install, installed on that first import (one line says so). Only the names that package lists are
 * resolved there, and only for the project's own files: every other import resolves as before.
 */
function matrixPackages(): Plugin {
  const names = new Set(matrixPackageNames());
  let ready = false;
  return {
    name: 'reasoning-replay:matrix-packages',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      const name = packageNameOf(id);
      if (!name || !names.has(name) || !importer || importer.includes('/node_modules/')) return null;
      if (!ready) ensureMatrixPackages();
      ready = true;
      return this.resolve(id, join(matricesDir(), 'package.json'), { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  plugins: [matrixPackages()],
  test: {
    // The ten slowest files close a run of the whole suite (npm test), so growth is seen when it happens.
    reporters: ['default', new SlowestFilesReporter(dirname(fileURLToPath(import.meta.url)))],
    // The schemas' validators, compiled once per run rather than once per test file.
    globalSetup: ['test/helpers/precompiled-validators.test-helper.ts'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Spawned-CLI and sqlite tests are I/O bound; two cores are what CI has.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on CI's two cores that is ONE worker, and the suite
    // ran file after file while most of its time waits on child processes. One worker per core.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
