import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** A full collection before each timed call, so one run does not pay for the garbage of the last. */
export const collectGarbage: () => void = runInNewContext('gc') as () => void;

/**
 * CPU milliseconds (user + system) this process spent in one synchronous call. CPU time, not wall
 * time: on a shared machine the process is descheduled at random, which wall time counts and CPU
 * time does not.
 */
export function cpuSync(fn: () => unknown): number {
  collectGarbage();
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Wall milliseconds of an asynchronous call (I/O-bound work, where waiting is part of the cost). */
export async function wallAsync(fn: () => Promise<unknown>): Promise<number> {
  collectGarbage();
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Times `subject` and `floor` alternately, `rounds` times each after a few warm-up runs of both, in CPU
 * time, and compares the fastest run of each: the fastest run is the one least disturbed by other
 * processes, so the ratio of minima holds on a loaded machine where medians wander. `repeat` runs
 * each side several times per timed sample, so one sample is long enough to average out scavenges.
 */
const WARM_UP_RUNS = 3;

export function pairedSync(
  subject: () => unknown,
  floor: () => unknown,
  rounds: number,
  repeat = 1,
): { subjectMs: number; floorMs: number; ratio: number } {
  const times = (fn: () => unknown) => () => {
    for (let i = 0; i < repeat; i++) fn();
  };
  // A few untimed runs first, so the JIT has compiled both paths before either is measured.
  for (let i = 0; i < WARM_UP_RUNS; i++) {
    subject();
    floor();
  }
  let subjectMs = Infinity;
  let floorMs = Infinity;
  for (let i = 0; i < rounds; i++) {
    floorMs = Math.min(floorMs, cpuSync(times(floor)) / repeat);
    subjectMs = Math.min(subjectMs, cpuSync(times(subject)) / repeat);
  }
  return { subjectMs, floorMs, ratio: subjectMs / floorMs };
}

export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
