import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A captured stream body that ended inside an SSE event. */
export class StreamCutError extends ReasoningReplayError {
  readonly kind = 'external';

  constructor(readonly events: number) {
    super(`the stream ended inside an event (cut off after ${events} whole events)`);
  }
}
