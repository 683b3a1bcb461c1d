import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A body of an in-process exchange (a request the transport made, an answer a mock made) was read twice, or cloned
 * after it was read: fetch refuses both (with a TypeError), and so do these bodies. Only the harness reads them.
 */
export class BodyUsedError extends ReasoningReplayError {
  readonly kind = 'harness';
}
