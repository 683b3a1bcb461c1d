import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A request that no provider mock claims, refused as msw's `onUnhandledRequest: 'error'` would. */
export class UnhandledRequestError extends ReasoningReplayError {
  readonly kind = 'external';
}
