import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Under Stryker every mutant re-runs the tests that cover it in a fresh worker, so each run pays
 * for importing its test files again (vitest only keeps a non-isolated worker while files are
 * queued). The direct unit tests (`*.mutation-gaps.test.ts`, then plain `*.test.ts`) import little
 * and kill most mutants, so they go first; with bail on, a killed mutant never imports the
 * property tests that drive the whole engine.
 */
class DirectTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) =>
      f.moduleId.endsWith('.mutation-gaps.test.ts') ? 0 : /\.(property|fuzz)\.test\.ts$/.test(f.moduleId) ? 2 : 1;
    const sorted = await super.sort(files);
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

/**
 * The tests Stryker (`npm run mutate`, stryker.config.json) runs against each mutant: the unit and
 * property tests of the mutated core only. Tests that spawn the CLI, need dist/ or read
 * ../shared/real-traffic cannot run in Stryker's sandbox copy, and would only slow each mutant.
 */
export default defineConfig({
  test: {
    include: [
      'src/engine/replay/*.test.ts',
      'src/engine/policy/*.test.ts',
      'src/shared/route-table/host-matching*.test.ts',
      'src/shared/route-table/resolve-route.test.ts',
      'src/provider/rules/*.test.ts',
      'src/provider/families/*/request-rules*.test.ts',
      'src/engine/families/*.test.ts',
      'src/engine/families/*/stream-carriers.test.ts',
      'src/engine/families/*/*.mutation-gaps.test.ts',
      'src/engine/families/copilot/copilot.test.ts',
      'src/engine/families/openai-responses/openai-responses.test.ts',
      'src/engine/families/anthropic-messages/fixture-streams.test.ts',
    ],
    exclude: ['src/engine/families/history-shape-error.test.ts'],
    pool: 'forks',
    // Stryker re-runs these files for every mutant: without isolation a module is imported once
    // per worker, not once per file per mutant (imports were four fifths of a run's time).
    isolate: false,
    sequence: { sequencer: DirectTestsFirst },
    setupFiles: ['test/helpers/mutation-setup.test-helper.ts'],
    testTimeout: 60_000,
  },
});
