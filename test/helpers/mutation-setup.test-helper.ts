import fc from 'fast-check';

/**
 * Loaded only by vitest.mutate.config.ts: under Stryker every property test runs once per mutant,
 * so each property tries fewer generated cases. A mutant the properties catch is usually caught
 * in the first few; the full counts still run in `npm test`.
 */
fc.configureGlobal({ numRuns: 25 });
// Properties that take their count from FC_RUNS (replay-for-route) follow it too.
process.env.FC_RUNS ??= '25';
