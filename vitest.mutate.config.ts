import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker (`npm run mutate`, stryker.config.json) runs against each mutant: the unit and
 * property tests of the mutated core only. Tests that spawn the CLI, need dist/ or read
 * ../shared/real-traffic cannot run in Stryker's sandbox copy, and would only slow each mutant.
 */
export default defineConfig({
  test: {
    include: [
      'src/replay/*.test.ts',
      'src/routes/host-matching.test.ts',
      'src/routes/resolve-route.test.ts',
      'src/mocks/rules/*.test.ts',
      'src/families/*/stream-carriers.test.ts',
      'src/families/copilot/copilot.test.ts',
      'src/families/openai-responses/openai-responses.test.ts',
    ],
    pool: 'forks',
    // Stryker re-runs these files for every mutant: without isolation a module is imported once
    // per worker, not once per file per mutant (imports were four fifths of a run's time).
    isolate: false,
    setupFiles: ['src/testing/mutation-setup.ts'],
    testTimeout: 60_000,
  },
});
