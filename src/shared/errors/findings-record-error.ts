import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A mock's findings that cannot be read: malformed, truncated, or of a version this build does not
 * know. Never an empty list: a dropped finding is a verdict nobody made. The mocks are ours, so it
 * is a harness fault; nothing was judged, and the CLI prints one line and exits 2 (decision 0060).
 */
export class FindingsRecordError extends ReasoningReplayError {
  readonly kind = 'harness';

  constructor(
    /** Which answer carried it, e.g. `DeepSeek's answer to call 1 (attempt 1) of scenario s`. */
    readonly where: string,
    readonly problem: string,
  ) {
    super(`harness error: ${where}: its findings record cannot be read: ${problem}; nothing was judged`);
  }
}
