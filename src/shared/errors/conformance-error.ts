import { ReasoningReplayError } from './reasoning-replay-error.js';

/** An agent's requests broke provider rules (`expectConformant`); the message names each request and rule. */
export class ConformanceError extends ReasoningReplayError {
  readonly kind = 'external';
}
