import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import {
  ensureMatrixPackages,
  matricesDir,
  matrixPackageNames,
  matrixPackagesInstalled,
  packageNameOf,
} from './src/shared/matrix-packages/matrix-packages.js';
import { SlowestFilesReporter } from './test/helpers/slowest-files.test-helper.js';

const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * The install in a child process (the built with-matrix-packages.js, which npm test builds first), so this process,
 * which serves every worker's imports, keeps answering them for the minutes it takes; in process when not built.
 */
function installMatrixPackages(): Promise<void> {
  const script = join(ROOT, 'dist', 'src', 'shared', 'matrix-packages', 'with-matrix-packages.js');
  if (matrixPackagesInstalled() || !existsSync(script)) return Promise.resolve(void ensureMatrixPackages());
  return new Promise((done, fail) =>
    spawn(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] }).on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`installing the matrices' packages failed (exit ${code})`)),
    ),
  );
}

/**
 * A test that imports an SDK of the matrices' package by name (src/tools/services/serve/official-sdks.test.ts) gets it from
 * test/matrices' install, installed on that first import (one line says so). Only the names that package lists are
 * resolved there, and only for the project's own files: every other import resolves as before.
 */
function matrixPackages(): Plugin {
  const names = new Set(matrixPackageNames());
  let ready: Promise<void> | undefined;
  return {
    name: 'reasoning-replay:matrix-packages',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      const name = packageNameOf(id);
      if (!name || !names.has(name) || !importer || importer.includes('/node_modules/')) return null;
      ready ||= installMatrixPackages();
      await ready;
      return this.resolve(id, join(matricesDir(), 'package.json'), { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  plugins: [matrixPackages()],
  test: {
    // The ten slowest files close a run of the whole suite (npm test), so growth is seen when it happens.
    reporters: ['default', new SlowestFilesReporter(ROOT)],
    // The schemas' validators, compiled once per run rather than once per test file.
    globalSetup: ['test/helpers/precompiled-validators.test-helper.ts'],
    // Which files run is each project's include (an include here would be merged into both).
    // Half of the suite's time went to importing modules: every file, in a fresh module graph, imported the specs'
    // loaders, the families and the judges again. The three sides' own tests are pure (no process-wide state: no
    // chdir, no env, no stdout swapping), so their files share one module graph per worker; the tools' tests, which
    // swap cwd, env and output streams for in-process CLI runs and start servers, keep a fresh graph per file.
    projects: [
      {
        extends: true,
        test: {
          name: 'sides',
          include: [
            'src/engine/**/*.test.ts',
            'src/provider/**/*.test.ts',
            'src/judge/**/*.test.ts',
            'src/shared/**/*.test.ts',
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'tools',
          include: ['src/tools/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
        },
      },
    ],
    // Spawned-CLI and sqlite tests are I/O bound; two cores are what CI has.
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on CI's two cores that is ONE worker, and the suite
    // ran file after file while most of its time waits on child processes. One worker per core.
    maxWorkers: availableParallelism(),
    // Tests marked concurrent (each a child process of its own, e.g. the real-client matrix) run one per core in
    // their worker, not vitest's default five: more would only queue on two cores.
    maxConcurrency: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
