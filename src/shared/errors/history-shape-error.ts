import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A history that a wire family cannot express (tool arguments that are not a JSON object, say).
 * Families do not know which file the history came from; the caller that does (the CLI) turns
 * this into an InputError naming the file, so the user sees one line and exit 2, never a trace.
 */
export class HistoryShapeError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    readonly pointer: string,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super(`history ${pointer}: ${problem}${hint ? ` (hint: ${hint})` : ''}`);
  }
}
