/**
 * Whether this CLI run gets V8's raised tier-up budget (decision 0034): short runs stop paying for
 * background compiles of functions they are nearly done with. `serve` runs for minutes or hours
 * and answers the same hot path all along, so it keeps V8's own budget: with the raised one its
 * first seconds answered 1.2-1.5x fewer requests (issue 22). `run` is a CLI run like `check`.
 * Imports nothing: the bin loads it before the CLI's modules.
 */
export const RAISED_INTERRUPT_BUDGET = 540_672;

const LONG_RUNNING = new Set(['serve']);

export function wantsRaisedTierUpBudget(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.REASONING_REPLAY_V8_DEFAULTS === '1') return false;
  const command = argv.find((a) => !a.startsWith('-'));
  return command === undefined || !LONG_RUNNING.has(command);
}
