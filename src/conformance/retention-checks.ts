import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compress } from '../compaction/compress.js';
import { estimateTokens } from '../compaction/estimate-tokens.js';
import type { Check } from './verdict.js';
import { carrierKinds } from '../model/carriers.js';
import type { History, Message } from '../model/history.js';
import { replayForRoute } from '../replay/replay-for-route.js';
import type { RoutePolicy } from '../routes/route-table.js';
import { SessionStore } from '../session/session-store.js';

export type RetentionBehaviour = 'survives-compaction' | 'survives-branch' | 'survives-resume';
export interface RetentionCheck extends Check {
  behaviour: RetentionBehaviour;
}

const CARRIER_KEYS = ['reasoning_content', 'reasoning', 'reasoning_details', 'native'] as const;

/** The first carrier of `after` that is not byte-identical to `before`'s, or null. */
export function carrierDifference(before: Message, after: Message): string | null {
  for (const key of CARRIER_KEYS) {
    const a = before[key] === undefined ? undefined : JSON.stringify(before[key]);
    const b = after[key] === undefined ? undefined : JSON.stringify(after[key]);
    if (a !== b) return `${key}: ${a === undefined ? 'absent' : `${a.length} bytes`} became ${b === undefined ? 'absent' : `${b.length} bytes`}`;
  }
  return null;
}

/**
 * The first key of `after` whose JSON differs from `before`'s (or a key one has and the other lacks),
 * or null. JSON is the unit because that is what goes on the wire: key order inside a message is not
 * kept by storage (canonical order on resume), key order inside a carrier is.
 */
export function messageDifference(before: Message, after: Message): string | null {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    const a = JSON.stringify((before as unknown as Record<string, unknown>)[key]);
    const b = JSON.stringify((after as unknown as Record<string, unknown>)[key]);
    if (a !== b) return `${key}: ${a === undefined ? 'absent' : `${a.length} bytes`} became ${b === undefined ? 'absent' : `${b.length} bytes`}`;
  }
  return null;
}

function compareAll(original: readonly Message[], copy: readonly Message[], pairs: Iterable<[number, number]>): string | null {
  for (const [i, j] of pairs) {
    const diff = carrierDifference(original[i]!, copy[j]!);
    if (diff) return `message ${i} (${original[i]!.role}) ${diff}`;
  }
  return null;
}

const identity = (n: number): Iterable<[number, number]> => Array.from({ length: n }, (_, i): [number, number] => [i, i]);
const requestBytes = (history: History, policy: RoutePolicy) => JSON.stringify(replayForRoute(history, policy));

function withTempStore<T>(fn: (store: SessionStore, reopen: () => SessionStore) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'rr-retention-'));
  const file = join(dir, 'state.db');
  const opened: SessionStore[] = [];
  const open = () => {
    const s = SessionStore.open(file, { scratch: true });
    opened.push(s);
    return s;
  };
  try {
    return fn(open(), open);
  } finally {
    for (const s of opened) if (s.db.open) s.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Branching is all inside SQLite; a memory database exercises the same statements without the disk. */
function withMemoryStore<T>(fn: (store: SessionStore) => T): T {
  const store = SessionStore.open(':memory:');
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

function checkResume(history: History, policy: RoutePolicy): RetentionCheck {
  return withTempStore((store, reopen) => {
    const id = store.importHistory(history);
    store.close();
    const resumed = reopen().resume(id).history;
    if (resumed.messages.length !== history.messages.length) return fail('survives-resume', `resumed ${resumed.messages.length} of ${history.messages.length} messages`);
    const diff = compareAll(history.messages, resumed.messages, identity(history.messages.length));
    if (diff) return fail('survives-resume', `after resume from state.db, ${diff}`);
    if (requestBytes(resumed, policy) !== requestBytes(history, policy)) return fail('survives-resume', `the ${policy.routeId} request built from the resumed session differs from the live one`);
    return pass('survives-resume', `${history.messages.length} messages reloaded from a state.db file; carriers and the ${policy.routeId} request byte-identical`);
  });
}

function checkBranch(history: History, policy: RoutePolicy): RetentionCheck {
  return withMemoryStore((store) => {
    const parent = store.importHistory(history);
    const all = store.branch(parent, history.messages.length);
    const half = store.branch(parent, Math.floor(history.messages.length / 2));
    const branched = store.resume(all).history;
    let diff = compareAll(history.messages, branched.messages, identity(history.messages.length));
    if (diff) return fail('survives-branch', `in the branch, ${diff}`);
    const halfHistory = store.resume(half).history;
    diff = compareAll(history.messages, halfHistory.messages, identity(halfHistory.messages.length));
    if (diff) return fail('survives-branch', `in the branch at turn ${halfHistory.messages.length}, ${diff}`);
    if (requestBytes(branched, policy) !== requestBytes(history, policy)) return fail('survives-branch', `the ${policy.routeId} request built from the branch differs from the original`);
    // Independence: a turn added to the branch must not appear in the parent.
    store.appendExchange(all, [{ role: 'user', content: 'branch-only turn' }]);
    const parentAfter = store.resume(parent).history;
    if (parentAfter.messages.length !== history.messages.length) return fail('survives-branch', 'a turn appended to the branch appeared in the parent session');
    diff = compareAll(history.messages, parentAfter.messages, identity(history.messages.length));
    if (diff) return fail('survives-branch', `in the parent after the branch changed, ${diff}`);
    return pass(
      'survives-branch',
      `branches at ${history.messages.length} and ${halfHistory.messages.length} keep every carrier; the ${policy.routeId} request is byte-identical; the parent is unaffected`,
    );
  });
}

function checkCompaction(history: History, policy: RoutePolicy): RetentionCheck {
  const before = JSON.stringify(history);
  const budget = Math.max(1, Math.floor(estimateTokens(history, { policy }) / 2));
  const result = compress(history, budget, { policy });
  if (JSON.stringify(history) !== before) return fail('survives-compaction', 'compaction modified the history it was given');
  const pairs = result.kept.flatMap((from, j): [number, number][] => (from === null ? [] : [[from, j]]));
  const diff = compareAll(history.messages, result.history.messages, pairs);
  if (diff) return fail('survives-compaction', `after compaction, retained ${diff}`);
  // A retained assistant turn must come back whole (its tool calls decide where a must-echo pad goes),
  // judged on the message itself rather than by asking the engine's carrier selection.
  for (const [i, j] of pairs) {
    if (history.messages[i]!.role !== 'assistant') continue;
    const changed = messageDifference(history.messages[i]!, result.history.messages[j]!);
    if (changed) return fail('survives-compaction', `message ${i}: the retained assistant turn changed after compaction (${changed}), so what ${policy.routeId} is sent changes`);
  }
  const recompacted = compress(result.history, budget, { policy });
  if (result.status === 'compacted' && recompacted.status !== 'unchanged')
    return fail('survives-compaction', `the preflight disagrees with the tail walk: a compacted history (${result.estimateAfter} <= ${budget}) would be compacted again`);
  return pass(
    'survives-compaction',
    `budget ${budget} of ${result.estimateBefore}: ${result.status}, ${pairs.length} messages retained with carriers byte-identical, ${result.dropped.length} summarized${result.reason ? ` (${result.reason.split(';')[0]})` : ''}`,
  );
}

const pass = (behaviour: RetentionBehaviour, detail: string): RetentionCheck => ({ behaviour, status: 'pass', detail });
const fail = (behaviour: RetentionBehaviour, detail: string): RetentionCheck => ({ behaviour, status: 'fail', detail });

/**
 * Per conformance cell: does the history's reasoning survive compaction, branching and a resume
 * from a real state.db file, byte for byte, and does the route get the same request afterwards?
 * n/a when the history holds no carrier at all (nothing could be lost).
 */
export function retentionChecks(history: History, policy: RoutePolicy): RetentionCheck[] {
  const behaviours: RetentionBehaviour[] = ['survives-compaction', 'survives-branch', 'survives-resume'];
  if (!history.messages.some((m) => carrierKinds(m).length > 0)) {
    return behaviours.map((behaviour) => ({ behaviour, status: 'n/a', detail: 'the history holds no reasoning carrier' }));
  }
  const run = (behaviour: RetentionBehaviour, fn: () => RetentionCheck): RetentionCheck => {
    try {
      return fn();
    } catch (err) {
      return fail(behaviour, `threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return [run('survives-compaction', () => checkCompaction(history, policy)), run('survives-branch', () => checkBranch(history, policy)), run('survives-resume', () => checkResume(history, policy))];
}
