import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Spawned-CLI and sqlite tests are I/O bound; two cores are what CI has.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
