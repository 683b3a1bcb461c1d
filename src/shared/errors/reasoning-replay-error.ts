/**
 * Whose fault an error is, which is what the CLI answers by:
 * - `input`: the user's input (a file, a flag, a history, a scenario, an API argument) is wrong;
 *   the CLI prints one line and exits 2, never a stack trace.
 * - `external`: something outside the harness did not do its part (a provider's answer, a live
 *   endpoint, an agent or engine under test, recorded traffic); the command names it and exits 1.
 * - `harness`: reasoning-replay broke one of its own invariants: a bug, reported with its trace (exit 70).
 */
export type ErrorKind = 'input' | 'external' | 'harness';

/** The base of every error reasoning-replay throws. Each error is one file in this folder, named `*Error`. */
export abstract class ReasoningReplayError extends Error {
  abstract readonly kind: ErrorKind;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
