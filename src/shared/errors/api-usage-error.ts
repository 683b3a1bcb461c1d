import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A caller of the package API (`reasoning-replay`, `reasoning-replay/vitest`) asked for something it does not offer. */
export class ApiUsageError extends ReasoningReplayError {
  readonly kind = 'input';
}
