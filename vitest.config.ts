import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
