import { ReasoningReplayError } from './reasoning-replay-error.js';

/** The matrices' packages (test/matrices) could not be installed: npm failed, or another install never finished. Exit 1. */
export class MatrixPackagesError extends ReasoningReplayError {
  readonly kind = 'external';
}
