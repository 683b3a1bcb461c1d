import { ReasoningReplayError } from './reasoning-replay-error.js';

/** A call that got no whole answer in time: the request, headers or body took longer than `--timeout`. */
export class DeadlineExceededError extends ReasoningReplayError {
  readonly kind = 'external';

  constructor(readonly ms: number) {
    super(`no complete answer within ${ms / 1000}s (--timeout)`);
  }
}
