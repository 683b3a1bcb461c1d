import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A `$mock...` placeholder in a real-world case that cannot be resolved (an unknown kind, a bad argument). */
export class PlaceholderError extends ReasoningReplayError {
  readonly kind = 'input';
}
