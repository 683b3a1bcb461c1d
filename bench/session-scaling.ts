/**
 * How resume and compaction grow with session length: 1k, 10k and 100k turns with carriers on
 * every assistant turn. The figure is the growth factor per 10x more turns (near-linear is ~10x;
 * the goal is under 12x), a ratio of two timings taken in this same run, so it holds on a loaded
 * machine. CPU time, minimum of a few rounds (see timing.ts).
 *
 * What it showed when written (2 cores shared with other jobs, load average 6-13): per turn, resume
 * cost ~3-4 / 4.5 / 5.8 us and compaction ~0.7-1 / 0.7 / 1.3 us at 1k / 10k / 100k, i.e. growth
 * per 10x between ~6x and ~18x from run to run. Both are single passes; what growth there is past 10x
 * is the memory hierarchy, not the algorithm: a 100k-turn history is ~100 MB of objects, past the
 * CPU caches (compaction touches every message once) and past V8's young generation (resume creates
 * them all and they all survive; reading a page of rows at a time keeps the row objects out of that).
 * The figure reports total CPU, collector included, because that is what a user waits for.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compress } from '../src/compaction/compress.js';
import { estimateTokens } from '../src/compaction/estimate-tokens.js';
import type { History, Message } from '../src/model/history.js';
import { SessionStore } from '../src/session/session-store.js';
import type { BenchFigure } from './figure.js';
import { cpuSync, round } from './timing.js';

export const SESSION_SIZES = [1_000, 10_000, 100_000] as const;
const GOAL = 12;

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
          { type: 'reasoning.text', text: `step ${n} plan`, signature: `c2lnbmF0dXJl${n}`, format: 'anthropic-claude-v1', index: 0 },
          { type: 'reasoning.encrypted', data: `ZW5jcnlwdGVk${n}`.repeat(8), format: 'openai-responses-v1', index: 1 },
        ],
        tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'run', arguments: `{"cmd":"npm test -- ${n}"}` } }],
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
  resumeMs: number;
  compactMs: number;
  dbBytes: number;
}

export interface SessionScaling {
  rows: ScalingRow[];
  /** time(10x turns) / time(turns), for each step 1k->10k and 10k->100k. */
  resumeGrowth: number[];
  compactGrowth: number[];
}

const growth = (xs: number[]) => xs.slice(1).map((x, i) => round(x / xs[i]!, 2));

/** Measures write, resume and compaction at each size; returns the raw times and growth factors. */
export async function measureSessionScaling(sizes: readonly number[] = SESSION_SIZES): Promise<SessionScaling> {
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-sessions-'));
  const rows: ScalingRow[] = [];
  /** Small sizes are repeated inside one timing so a run lasts long enough to measure (per-call time reported). */
  const perCall = (turns: number, fn: () => unknown) => {
    const reps = Math.max(1, Math.round(20_000 / turns));
    return (
      cpuSync(() => {
        for (let i = 0; i < reps; i++) fn();
      }) / reps
    );
  };
  try {
    // Warm-up, so the first size does not pay for JIT compilation.
    {
      const warm = sessionWithCarriers(2_000);
      const store = SessionStore.open(join(dir, 'warm.db'));
      const id = store.importHistory(warm);
      for (let i = 0; i < 3; i++) store.resume(id);
      store.close();
      for (let i = 0; i < 3; i++) compress(warm, Math.floor(estimateTokens(warm) / 2));
    }
    // Sizes are timed in interleaved rounds (1k, 10k, 100k, 1k, ...) so that a burst of load from
    // other processes hits every size alike; each keeps its fastest round.
    const subjects = sizes.map((turns) => {
      const file = join(dir, `s${turns}.db`);
      const history = sessionWithCarriers(turns);
      const store = SessionStore.open(file);
      const writeMs = cpuSync(() => store.importHistory(history));
      store.close();
      return { turns, file, history, budget: Math.floor(estimateTokens(history) / 2), writeMs, resumeMs: Infinity, compactMs: Infinity };
    });
    for (let r = 0; r < 6; r++) {
      for (const s of subjects) {
        const reopened = SessionStore.open(s.file);
        s.resumeMs = Math.min(
          s.resumeMs,
          perCall(s.turns, () => reopened.resume(1)),
        );
        reopened.close();
        s.compactMs = Math.min(
          s.compactMs,
          perCall(s.turns, () => compress(s.history, s.budget)),
        );
      }
    }
    for (const s of subjects) rows.push({ turns: s.turns, writeMs: round(s.writeMs, 1), resumeMs: round(s.resumeMs, 2), compactMs: round(s.compactMs, 2), dbBytes: statSync(s.file).size });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, resumeGrowth: growth(rows.map((r) => r.resumeMs)), compactGrowth: growth(rows.map((r) => r.compactMs)) };
}

/** For `npm run bench`: the worst growth per 10x of resume and of compaction. */
export async function benchSessionScaling(): Promise<BenchFigure[]> {
  const s = await measureSessionScaling();
  const figure = (id: string, what: string, factors: number[], key: 'resumeMs' | 'compactMs'): BenchFigure => {
    const worst = Math.max(...factors);
    return {
      id,
      figure: what,
      measured: worst,
      unit: 'x per 10x turns',
      goal: `< ${GOAL}x per 10x`,
      met: worst < GOAL,
      details: {
        growthPer10x: factors,
        usPerTurn: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, round((r[key] * 1000) / r.turns, 2)])),
        ms: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, r[key]])),
        writeMs: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, r.writeMs])),
        dbBytes: Object.fromEntries(s.rows.map((r) => [`${r.turns}`, r.dbBytes])),
      },
    };
  };
  return [
    figure('session-scaling/resume', 'resume of a session with carriers from state.db, 1k -> 10k -> 100k turns: growth per 10x', s.resumeGrowth, 'resumeMs'),
    figure('session-scaling/compaction', 'compaction (tail walk + salvage) of 1k -> 10k -> 100k turns: growth per 10x', s.compactGrowth, 'compactMs'),
  ];
}
