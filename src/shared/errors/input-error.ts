import { ReasoningReplayError } from './reasoning-replay-error.js';

/**
 * A user's input is wrong (a file, a flag, a ref). The CLI prints `message` as one line and exits 2;
 * nothing that throws this should ever show a stack trace.
 */
export class InputError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super(`${file}${pointer ? ` at ${pointer}` : ''}: ${problem}${hint ? ` (hint: ${hint})` : ''}`);
  }
}
