import { ReasoningReplayError } from './reasoning-replay-error.js';

/** An engine under test, run as a command, that did not start, died, refused a build or did not answer in time. */
export class ExternalEngineError extends ReasoningReplayError {
  readonly kind = 'external';
}
