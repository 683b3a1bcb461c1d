import { ReasoningReplayError } from './reasoning-replay-error.js';

/** Something that cannot happen did: a bug in reasoning-replay, never the user's input. Exit 70 with the trace. */
export class InvariantError extends ReasoningReplayError {
  readonly kind = 'harness';
}
