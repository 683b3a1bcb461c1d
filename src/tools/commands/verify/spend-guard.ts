import { RunStoppedError } from '../../../shared/errors/run-stopped-error.js';

/** The hard limits of one `verify --live` run. */
export interface Caps {
  maxRequests: number;
  /** USD, estimated from specs/prices.json (and raised to what answers report they used). */
  maxCost: number;
  /** The whole run's time. */
  maxTimeMs: number;
}

const usd = (n: number) => `$${n.toFixed(4)}`;

/**
 * Counts what a run has sent and spent, and refuses the request that would pass a cap: before it
 * is sent, never after. Spend is charged at the estimate, or at the usage the answer reports when
 * that is higher (an estimate that ran low does not let the run spend past the cap afterwards).
 */
export class SpendGuard {
  sent = 0;
  /** USD charged against the cap: per request the larger of its estimate and its reported usage. */
  charged = 0;
  /** USD the answers themselves reported (requests whose answer gave no usage count at their estimate). */
  reported = 0;
  private readonly endsAt: number;

  constructor(
    readonly caps: Caps,
    private readonly now: () => number = Date.now,
  ) {
    this.endsAt = now() + caps.maxTimeMs;
  }

  /** Why `requests` more requests costing `cost` in all would pass a cap; undefined when they fit. */
  room(requests: number, cost: number): string | undefined {
    if (this.sent + requests > this.caps.maxRequests)
      return `--max-requests ${this.caps.maxRequests} (${this.sent} sent, ${requests} more needed)`;
    // A rounding hair above the cap is still inside it: costs are sums of small products.
    if (this.charged + cost > this.caps.maxCost + 1e-12)
      return `--max-cost ${this.caps.maxCost} (${usd(this.charged)} charged, ${usd(cost)} more estimated)`;
    if (this.timeLeft() <= 0) return `--max-time ${this.caps.maxTimeMs} ms`;
    return undefined;
  }

  /** Called right before one request goes out: throws when it would pass a cap. */
  admit(cost: number): void {
    const over = this.room(1, cost);
    if (over)
      throw new RunStoppedError(
        `stopped before the next request: it would pass ${over}`,
        over.startsWith('--max-time') ? 'time' : 'cap',
      );
    this.sent++;
  }

  /** After the answer (or the failure): the request's charge. */
  settle(estimate: number, reported: number | undefined): void {
    this.charged += Math.max(estimate, reported ?? 0);
    this.reported += reported ?? estimate;
  }

  timeLeft(): number {
    return this.endsAt - this.now();
  }
}
