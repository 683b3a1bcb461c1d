import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A `verify --live` run stops: a cap is reached, or the provider refused the key or the rate (401, 403, 429). */
export class RunStoppedError extends ReasoningReplayError {
  readonly kind = 'external';

  constructor(
    message: string,
    readonly reason: 'cap' | 'time' | 'refused',
  ) {
    super(message);
  }
}
