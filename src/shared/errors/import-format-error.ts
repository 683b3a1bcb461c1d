import { ReasoningReplayError } from './reasoning-replay-error.js';

/** An import file that is not the format it claims: where, and what was expected. Exit 2. */
export class ImportFormatError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`${pointer || '/'}: ${problem}`);
  }
}
