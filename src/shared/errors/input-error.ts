import { ReasoningReplayError } from './reasoning-replay-error.js';
import { shownFileName } from '../files/shown-file-name.js';

/**
 * A user's input is wrong (a file, a flag, a ref). The CLI prints `message` as one line and exits 2;
 * nothing that throws this should ever show a stack trace. `file` is kept as given; the message
 * quotes it when it holds a newline or another character that would break the line (shown-file-name.ts).
 */
export class InputError extends ReasoningReplayError {
  readonly kind = 'input';

  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super(`${shownFileName(file)}${pointer ? ` at ${pointer}` : ''}: ${problem}${hint ? ` (hint: ${hint})` : ''}`);
  }
}
