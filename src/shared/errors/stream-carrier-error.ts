import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A stream that could not be read to its end: which event, what was wrong, and what was kept.
 * `Partial` is the engine's parsed answer (the protocol folder does not name engine types).
 */
export class StreamCarrierError<Partial = unknown> extends ReasoningReplayError {
  readonly kind = 'external';

  constructor(
    readonly eventIndex: number,
    readonly problem: string,
    /** Readable text and tool calls gathered before the fault; never signed or opaque data. */
    readonly partial: Partial,
  ) {
    super(`stream event ${eventIndex}: ${problem}`);
  }
}
