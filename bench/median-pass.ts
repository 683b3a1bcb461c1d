import type { LoadPass } from './load-child.js';
import { median } from './timing.js';

/** What a server's rounds come to: the median of each measure over the rounds, and every round as measured. */
export interface RoundsSummary {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** The median of the rounds' server CPU per request, when every round has one. */
  serverCpuUsPerRequest?: number;
  rounds: LoadPass[];
}

/**
 * The median round, not the best: a user's load meets the machine as it is, and the best of many
 * passes reports the least disturbed one (the method before issue 43). Each measure is its own
 * median, so one round's stall moves neither the throughput nor the p99. At least three rounds:
 * a median of two is their mean.
 */
export function medianPass(rounds: readonly LoadPass[]): RoundsSummary {
  if (rounds.length < 3) throw new Error(`a median needs at least 3 rounds, got ${rounds.length}`);
  const cpu = rounds.map((r) => r.serverCpuUsPerRequest);
  return {
    ...(cpu.every((x) => x !== undefined) ? { serverCpuUsPerRequest: median(cpu) } : {}),
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    requests: rounds.reduce((sum, r) => sum + r.requests, 0),
    rounds: [...rounds],
  };
}
