import { ReasoningReplayError } from './reasoning-replay-error.js';

/** Why a Gemini native record could not be read; the caller adds the message's JSON pointer. */
export class UnreadableGeminiRecordError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    readonly at: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}
