import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A provider answer that is not the shape its family documents. `pointer` is the JSON pointer of
 * the part that is wrong, so the message names where to look.
 */
export class ResponseShapeError extends ReasoningReplayError {
  readonly kind = 'external';

  constructor(
    readonly pointer: string,
    problem: string,
  ) {
    super(`response ${pointer}: ${problem}`);
  }
}
