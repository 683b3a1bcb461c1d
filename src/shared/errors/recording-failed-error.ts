import { ReasoningReplayError } from './reasoning-replay-error.js';

/** The recording did not produce a fixture; the message says which call and why. Exit 1. */
export class RecordingFailedError extends ReasoningReplayError {
  readonly kind = 'external';
}
