import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A part of a history in another format that the canonical history has no place for; the CLI adds the file name. */
export class HistoryFormatError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    readonly pointer: string,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super(`${pointer}: ${problem}`);
  }
}
