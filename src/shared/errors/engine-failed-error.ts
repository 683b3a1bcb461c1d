import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * The engine under test broke its side of the protocol: it crashed, gave no answer in time, answered an
 * operation with something that is not an answer (no body, no message, a message the history schema refuses),
 * or refused to read an answer. That says nothing about the provider, so it is never a provider verdict: the run
 * stops, the CLI prints the message (the operation, the problem, the engine's stderr) and exits 2.
 */
export class EngineFailedError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    /** The protocol operation that failed (`build`, `read`, `store.resume`, ...). */
    readonly operation: string,
    readonly problem: string,
    /** The last lines the engine printed on stderr ('' when it printed nothing). */
    readonly stderrTail: string,
  ) {
    super(
      `engine error in ${operation}: ${problem}${stderrTail ? `; its stderr ends: ${stderrTail}` : '; it printed nothing on stderr'} (nothing was judged: fix the engine and run again)`,
    );
  }
}

/** Is `err` an engine's own failure (so the judge rethrows it instead of failing a cell)? */
export const isEngineFailure = (err: unknown): err is EngineFailedError => err instanceof EngineFailedError;
