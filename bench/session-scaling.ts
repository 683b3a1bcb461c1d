/**
 * How resume and compaction grow with session length: 1k, 10k and 100k turns with carriers on
 * every assistant turn. The figure is the growth factor per 10x more turns (linear is 10x; the
 * issue's goal is under 11x for BOTH steps, 1k->10k and 10k->100k, of resume AND of compaction), a
 * ratio of two timings taken in this same run, so it holds on a loaded machine.
 *
 * How it is timed: every sample handles the same number of turns of different data and holds its
 * results to the end (100 sessions of 1k turns resumed once each, 10 of 10k, 1 of 100k; likewise
 * 100, 10 and 1 distinct histories compacted), sizes interleaved round by round, each size keeping
 * its fastest sample (CPU time, see timing.ts). See measureSessionScaling for why.
 *
 * What the figure counts (decision docs/decisions/0030-session-scaling-counts-total-cpu.md): TOTAL
 * CPU, the collector included, because that is what a user waits for; `met` is judged on it. The
 * collector's share is reported beside it, never hidden: `gcMs` is the main-thread GC pause time
 * inside the sample (PerformanceObserver 'gc' entries, wall clock), and `growthPer10xWithoutGc`
 * the same growth with those pauses taken out. The difference between the two is the part of the
 * growth that is the memory hierarchy, not the algorithm: a resumed 100k-turn history is ~100 MB of
 * live objects that all survive into old space, where 100 resumes of 1k die young. `systemMs` and
 * `pageFaults` (per call) show the kernel's part: an array past 128 KB is a fresh large-object
 * allocation whose pages are faulted in one by one, which only the 100k size pays (compaction's
 * miss at 10k->100k was that; decision 0030).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { compress } from '../src/engine/compaction/compress.js';
import { estimateTokens } from '../src/engine/compaction/estimate-tokens.js';
import type { History, Message } from '../src/shared/history/history.js';
import { SessionStore } from '../src/engine/session/session-store.js';
import type { BenchFigure } from './figure.js';
import { collectGarbage, cpuSync, round } from './timing.js';

export const SESSION_SIZES = [1_000, 10_000, 100_000] as const;
/** The goal: under 11x per 10x more turns, every step. */
export const GOAL = 11;
/** Turns handled by one timed sample at every size. */
const TURNS_PER_SAMPLE = 100_000;
const ROUNDS = 7;
/**
 * Compaction samples per round over the same histories (cheap next to building them; every size's set is ~30 MB, past
 * the CPU caches alike).
 */
const COMPACTION_SAMPLES = 4;
/** `turns` messages in exchanges of four: user, assistant tool call with every carrier, tool result, answer. */
export function sessionWithCarriers(turns: number): History {
  const messages: Message[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let n = 0; messages.length < turns; n++) {
    const exchange: Message[] = [
      { role: 'user', content: `step ${n}: run the tests and fix what fails` },
      {
        role: 'assistant',
        content: null,
        reasoning_content: `Step ${n}: the failing test points at the parser; read it first, then patch. `.repeat(3),
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: `step ${n} plan`,
            signature: `c2lnbmF0dXJl${n}`,
            format: 'anthropic-claude-v1',
            index: 0,
          },
          { type: 'reasoning.encrypted', data: `ZW5jcnlwdGVk${n}`.repeat(8), format: 'openai-responses-v1', index: 1 },
        ],
        tool_calls: [
          { id: `call_${n}`, type: 'function', function: { name: 'run', arguments: `{"cmd":"npm test -- ${n}"}` } },
        ],
      },
      { role: 'tool', tool_call_id: `call_${n}`, content: `ok ${n}: 42 passed` },
      { role: 'assistant', content: `Step ${n} done.`, reasoning_content: ' ' },
    ];
    messages.push(...exchange.slice(0, turns - messages.length));
  }
  return { messages };
}

export interface ScalingRow {
  turns: number;
  writeMs: number;
  /** CPU ms of one call (fastest sample), and the main-thread GC pauses inside that sample. */
  resumeMs: number;
  resumeGcMs: number;
  /** Of resumeMs, the kernel's part (system CPU), and the minor page faults per call behind most of it. */
  resumeSystemMs: number;
  resumePageFaults: number;
  compactMs: number;
  compactGcMs: number;
  compactSystemMs: number;
  compactPageFaults: number;
  dbBytes: number;
}

export interface SessionScaling {
  rows: ScalingRow[];
  /** time(10x turns) / time(turns), for each step 1k->10k and 10k->100k: total CPU. */
  resumeGrowth: number[];
  compactGrowth: number[];
  /** The same with the GC pauses taken out (null when the pauses outweigh the CPU time: see growthWithoutGc). */
  resumeGrowthWithoutGc: number[] | null;
  compactGrowthWithoutGc: number[] | null;
}

const growth = (xs: number[]) => xs.slice(1).map((x, i) => round(x / xs[i]!, 2));

/**
 * Growth with the GC pauses taken out, or null: pauses are main-thread wall time, so on a loaded
 * machine (the process descheduled during a pause) they can exceed the CPU time they sit in, and
 * the difference means nothing. Parallel GC helper threads' CPU is not in the pauses either.
 */
const growthWithoutGc = (cpuMs: number[], gcMs: number[]): number[] | null => {
  const rest = cpuMs.map((c, i) => c - gcMs[i]!);
  return rest.every((x) => x > 0) ? growth(rest) : null;
};

interface Sample {
  cpuMs: number;
  gcMs: number;
  systemMs: number;
  pageFaults: number;
}

/** Main-thread GC pauses, by start time (entries arrive asynchronously, after the timed call). */
const gcPauses: { start: number; duration: number }[] = [];
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * CPU ms of one call of `fn` (averaged over `calls` calls on `calls` different subjects, every
 * result held to the end of the sample), and the GC pause ms that fell inside the sample (per call).
 */
async function sample(calls: number, fn: (i: number) => unknown): Promise<Sample> {
  const held: unknown[] = [];
  collectGarbage();
  await nextTurn();
  gcPauses.length = 0;
  const from = performance.now();
  const faultsBefore = process.resourceUsage().minorPageFault;
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) held.push(fn(i));
  const used = process.cpuUsage(start);
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  const to = performance.now();
  held.length = 0;
  await nextTurn();
  await nextTurn();
  const gcMs = gcPauses.filter((g) => g.start >= from && g.start <= to).reduce((n, g) => n + g.duration, 0);
  return {
    cpuMs: (used.user + used.system) / 1000 / calls,
    gcMs: gcMs / calls,
    systemMs: used.system / 1000 / calls,
    pageFaults: faults / calls,
  };
}

const faster = (a: Sample | undefined, b: Sample) => (a === undefined || b.cpuMs < a.cpuMs ? b : a);

/** Measures write, resume and compaction at each size; returns the raw times and growth factors. */
export async function measureSessionScaling(
  sizes: readonly number[] = SESSION_SIZES,
  rounds = ROUNDS,
): Promise<SessionScaling> {
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-sessions-'));
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push({ start: e.startTime, duration: e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    // Warm-up, so the first size does not pay for JIT compilation.
    {
      const warm = sessionWithCarriers(2_000);
      const store = SessionStore.open(join(dir, 'warm.db'), { scratch: true });
      const id = store.importHistory(warm);
      for (let i = 0; i < 10; i++) store.resume(id);
      store.close();
      for (let i = 0; i < 20; i++) compress(warm, Math.floor(estimateTokens(warm) / 2));
    }
    // A sample at every size handles the same TURNS_PER_SAMPLE turns of DIFFERENT data, and holds
    // every result to its end: 100 sessions of 1k turns in one state.db, resumed once each, against
    // one session of 100k. Repeating one small call on the same data (the first version of this
    // bench) let the small sizes run from warm caches (SQLite's 2 MB page cache, the CPU's L3) and
    // let their results die young, which a single call on a session of that size does not get.
    // Histories are built again before their compaction is timed, so no size's resume is timed
    // beside another size's histories in the heap.
    const subjects = sizes.map((turns) => {
      const file = join(dir, `s${turns}.db`);
      const calls = Math.max(1, Math.round(TURNS_PER_SAMPLE / turns));
      const store = SessionStore.open(file);
      const history = sessionWithCarriers(turns);
      const writeMs = cpuSync(() => store.importHistory(history));
      const ids = [1];
      for (let i = 1; i < calls; i++) ids.push(store.importHistory(history));
      store.close();
      return {
        turns,
        file,
        writeMs,
        ids,
        resume: undefined as Sample | undefined,
        compact: undefined as Sample | undefined,
      };
    });
    // Sizes are timed in interleaved rounds (1k, 10k, 100k, 1k, ...) so that a burst of load from
    // other processes hits every size alike; each keeps its fastest round.
    for (let r = 0; r < rounds; r++) {
      for (const s of subjects) {
        const reopened = SessionStore.open(s.file);
        s.resume = faster(s.resume, await sample(s.ids.length, (i) => reopened.resume(s.ids[i]!)));
        reopened.close();
        const histories = s.ids.map(() => sessionWithCarriers(s.turns));
        const budget = Math.floor(estimateTokens(histories[0]!) / 2);
        for (let k = 0; k < COMPACTION_SAMPLES; k++)
          s.compact = faster(s.compact, await sample(histories.length, (i) => compress(histories[i]!, budget)));
      }
    }
    const rows: ScalingRow[] = subjects.map((s) => ({
      turns: s.turns,
      writeMs: round(s.writeMs, 1),
      resumeMs: round(s.resume!.cpuMs, 3),
      resumeGcMs: round(s.resume!.gcMs, 3),
      resumeSystemMs: round(s.resume!.systemMs, 3),
      resumePageFaults: round(s.resume!.pageFaults, 1),
      compactMs: round(s.compact!.cpuMs, 3),
      compactGcMs: round(s.compact!.gcMs, 3),
      compactSystemMs: round(s.compact!.systemMs, 3),
      compactPageFaults: round(s.compact!.pageFaults, 1),
      dbBytes: Math.round(statSync(s.file).size / s.ids.length),
    }));
    return {
      rows,
      resumeGrowth: growth(rows.map((r) => r.resumeMs)),
      compactGrowth: growth(rows.map((r) => r.compactMs)),
      resumeGrowthWithoutGc: growthWithoutGc(
        rows.map((r) => r.resumeMs),
        rows.map((r) => r.resumeGcMs),
      ),
      compactGrowthWithoutGc: growthWithoutGc(
        rows.map((r) => r.compactMs),
        rows.map((r) => r.compactGcMs),
      ),
    };
  } finally {
    observer.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * For `npm run bench`: the worst growth per 10x of resume and of compaction, total CPU. A figure is
 * met only when every step (1k->10k and 10k->100k) is under the goal; both figures must be met.
 */
export async function benchSessionScaling(): Promise<BenchFigure[]> {
  const s = await measureSessionScaling();
  const figure = (
    id: string,
    what: string,
    factors: number[],
    withoutGc: number[] | null,
    key: 'resume' | 'compact',
  ): BenchFigure => {
    const worst = Math.max(...factors);
    const ms = (r: ScalingRow) => (key === 'resume' ? r.resumeMs : r.compactMs);
    const gcMs = (r: ScalingRow) => (key === 'resume' ? r.resumeGcMs : r.compactGcMs);
    const systemMs = (r: ScalingRow) => (key === 'resume' ? r.resumeSystemMs : r.compactSystemMs);
    const pageFaults = (r: ScalingRow) => (key === 'resume' ? r.resumePageFaults : r.compactPageFaults);
    return {
      id,
      figure: `${what}: growth per 10x, total CPU ${factors.join(' / ')}; without GC pauses (wall-time pauses, approximate) ${withoutGc ? withoutGc.join(' / ') : 'n/a (pauses over CPU time: machine under load)'}`,
      measured: worst,
      unit: 'x per 10x turns',
      goal: `< ${GOAL}x per 10x, every step`,
      met: factors.every((f) => f < GOAL),
      details: {
        growthPer10x: factors,
        growthPer10xWithoutGc: withoutGc,
        usPerTurn: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, round((ms(r) * 1000) / r.turns, 2)])),
        ms: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, ms(r)])),
        gcMs: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, gcMs(r)])),
        systemMs: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, systemMs(r)])),
        pageFaults: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, pageFaults(r)])),
        writeMs: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, r.writeMs])),
        dbBytes: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, r.dbBytes])),
      },
    };
  };
  return [
    figure(
      'session-scaling/resume',
      'resume of a session with carriers from state.db, 1k -> 10k -> 100k turns',
      s.resumeGrowth,
      s.resumeGrowthWithoutGc,
      'resume',
    ),
    figure(
      'session-scaling/compaction',
      'compaction (tail walk + salvage) of 1k -> 10k -> 100k turns',
      s.compactGrowth,
      s.compactGrowthWithoutGc,
      'compact',
    ),
  ];
}
