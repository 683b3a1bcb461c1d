import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineStorage, StoreUnderTest } from '../engine-under-test.js';
import type { Check } from '../conformance/verdict.js';
import type { History, Message } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';

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
    if (a !== b)
      return `${key}: ${a === undefined ? 'absent' : `${a.length} bytes`} became ${b === undefined ? 'absent' : `${b.length} bytes`}`;
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
    if (a !== b)
      return `${key}: ${a === undefined ? 'absent' : `${a.length} bytes`} became ${b === undefined ? 'absent' : `${b.length} bytes`}`;
  }
  return null;
}

function compareAll(
  original: readonly Message[],
  copy: readonly Message[],
  pairs: Iterable<[number, number]>,
): string | null {
  for (const [i, j] of pairs) {
    const diff = carrierDifference(original[i]!, copy[j]!);
    if (diff) return `message ${i} (${original[i]!.role}) ${diff}`;
  }
  return null;
}

const identity = (n: number): Iterable<[number, number]> =>
  Array.from({ length: n }, (_, i): [number, number] => [i, i]);

/** The judge's own reading of "holds reasoning": any carrier key present on any message. */
const holdsCarrier = (history: History) =>
  history.messages.some((m) => CARRIER_KEYS.some((key) => m[key] !== undefined));

/**
 * The stores the checks write to, opened once per run (opening a SQLite database and running its
 * migrations costs more than a cell's checks): a writer and a second, independent connection on one
 * state.db file in a temp folder (resume reads what the writer committed back from the file), and a
 * memory database for branching (all inside SQLite: a file adds nothing there). Sessions are
 * independent by id, so cells share them.
 */
class RunStores {
  private dir: string | undefined;
  private opened: { writer: StoreUnderTest; reader: StoreUnderTest; memory: StoreUnderTest } | undefined;
  constructor(private readonly storage: EngineStorage) {}

  get(): { writer: StoreUnderTest; reader: StoreUnderTest; memory: StoreUnderTest } {
    if (this.opened) return this.opened;
    this.dir = mkdtempSync(join(tmpdir(), 'rr-retention-'));
    const file = join(this.dir, 'state.db');
    const stores: StoreUnderTest[] = [];
    try {
      stores.push(this.storage.openStore(file), this.storage.openStore(file), this.storage.openStore(':memory:'));
    } catch (err) {
      for (const s of stores) s.close();
      this.close();
      throw err;
    }
    this.opened = { writer: stores[0]!, reader: stores[1]!, memory: stores[2]! };
    return this.opened;
  }

  close(): void {
    if (this.opened) for (const s of Object.values(this.opened)) s.close();
    this.opened = undefined;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

/** What the engine's stores give back for one history: the same for every route, so computed once per history. */
interface StoredCopies {
  /** Imported by the writer, resumed by the second connection (from the file). */
  resumed: History;
  /** Branched at the full length and at half, then the parent resumed after a turn was appended to the full branch. */
  branched: History;
  halfBranch: History;
  parentAfter: History;
}

/** A thrown error is kept too, so every cell with that history reports it the same way. */
type Outcome<T> = { value: T } | { error: unknown };
const settle = <T>(fn: () => T): Outcome<T> => {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
};
const valueOf = <T>(outcome: Outcome<T>): T => {
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
};

function resumeCopy(history: History, stores: RunStores): History {
  const { writer, reader } = stores.get();
  return reader.resume(writer.importHistory(history));
}

function branchCopies(history: History, stores: RunStores): Omit<StoredCopies, 'resumed'> {
  const store = stores.get().memory;
  const parent = store.importHistory(history);
  const all = store.branch(parent, history.messages.length);
  const half = store.branch(parent, Math.floor(history.messages.length / 2));
  const branched = store.resume(all);
  const halfBranch = store.resume(half);
  // Independence: a turn added to the branch must not appear in the parent.
  store.append(all, [{ role: 'user', content: 'branch-only turn' }]);
  return { branched, halfBranch, parentAfter: store.resume(parent) };
}

function checkResume(history: History, policy: RoutePolicy, storage: EngineStorage, resumed: History): RetentionCheck {
  if (resumed.messages.length !== history.messages.length)
    return fail('survives-resume', `resumed ${resumed.messages.length} of ${history.messages.length} messages`);
  const diff = compareAll(history.messages, resumed.messages, identity(history.messages.length));
  if (diff) return fail('survives-resume', `after resume from state.db, ${diff}`);
  if (requestBytes(storage, resumed, policy) !== requestBytes(storage, history, policy))
    return fail(
      'survives-resume',
      `the ${policy.routeId} request built from the resumed session differs from the live one`,
    );
  return pass(
    'survives-resume',
    `${history.messages.length} messages reloaded from a state.db file; carriers and the ${policy.routeId} request byte-identical`,
  );
}

function checkBranch(
  history: History,
  policy: RoutePolicy,
  storage: EngineStorage,
  copies: Omit<StoredCopies, 'resumed'>,
): RetentionCheck {
  const { branched, halfBranch: halfHistory, parentAfter } = copies;
  let diff = compareAll(history.messages, branched.messages, identity(history.messages.length));
  if (diff) return fail('survives-branch', `in the branch, ${diff}`);
  diff = compareAll(history.messages, halfHistory.messages, identity(halfHistory.messages.length));
  if (diff) return fail('survives-branch', `in the branch at turn ${halfHistory.messages.length}, ${diff}`);
  if (requestBytes(storage, branched, policy) !== requestBytes(storage, history, policy))
    return fail('survives-branch', `the ${policy.routeId} request built from the branch differs from the original`);
  if (parentAfter.messages.length !== history.messages.length)
    return fail('survives-branch', 'a turn appended to the branch appeared in the parent session');
  diff = compareAll(history.messages, parentAfter.messages, identity(history.messages.length));
  if (diff) return fail('survives-branch', `in the parent after the branch changed, ${diff}`);
  return pass(
    'survives-branch',
    `branches at ${history.messages.length} and ${halfHistory.messages.length} keep every carrier; the ${policy.routeId} request is byte-identical; the parent is unaffected`,
  );
}

const requestBytes = (storage: EngineStorage, history: History, policy: RoutePolicy) =>
  JSON.stringify(storage.buildRequest(history, policy));

function checkCompaction(
  history: History,
  policy: RoutePolicy,
  storage: EngineStorage,
  before: string,
): RetentionCheck {
  const budget = Math.max(1, Math.floor(storage.estimateTokens(history, policy) / 2));
  const result = storage.compact(history, budget, policy);
  if (JSON.stringify(history) !== before)
    return fail('survives-compaction', 'compaction modified the history it was given');
  const pairs = result.kept.flatMap((from, j): [number, number][] => (from === null ? [] : [[from, j]]));
  const diff = compareAll(history.messages, result.history.messages, pairs);
  if (diff) return fail('survives-compaction', `after compaction, retained ${diff}`);
  // A retained assistant turn must come back whole (its tool calls decide where a must-echo pad goes),
  // judged on the message itself rather than by asking the engine's carrier selection.
  for (const [i, j] of pairs) {
    if (history.messages[i]!.role !== 'assistant') continue;
    const changed = messageDifference(history.messages[i]!, result.history.messages[j]!);
    if (changed)
      return fail(
        'survives-compaction',
        `message ${i}: the retained assistant turn changed after compaction (${changed}), so what ${policy.routeId} is sent changes`,
      );
  }
  const recompacted = storage.compact(result.history, budget, policy);
  if (result.status === 'compacted' && recompacted.status !== 'unchanged')
    return fail(
      'survives-compaction',
      `the preflight disagrees with the tail walk: a compacted history (${result.estimateAfter} <= ${budget}) would be compacted again`,
    );
  return pass(
    'survives-compaction',
    `budget ${budget} of ${result.estimateBefore}: ${result.status}, ${pairs.length} messages retained with carriers byte-identical, ${result.dropped} summarized${result.reason ? ` (${result.reason.split(';')[0]})` : ''}`,
  );
}

const pass = (behaviour: RetentionBehaviour, detail: string): RetentionCheck => ({ behaviour, status: 'pass', detail });
const fail = (behaviour: RetentionBehaviour, detail: string): RetentionCheck => ({ behaviour, status: 'fail', detail });

export interface RetentionChecks {
  /** The three checks for one cell's final history on the cell's route. */
  run(history: History, policy: RoutePolicy): RetentionCheck[];
  /** Closes the run's stores and removes their temp folder. */
  close(): void;
}

/**
 * Per conformance cell: does the history's reasoning survive the engine's compaction, branching and
 * a resume from a state.db file, byte for byte, and does the route get the same request afterwards?
 * The expectation is the judge's own: every carrier it handed in comes back unchanged (no engine
 * selection is asked). n/a when the history holds no carrier at all (nothing could be lost). One
 * instance per run: call close() when the run ends.
 */
export function retentionChecks(storage: EngineStorage): RetentionChecks {
  const stores = new RunStores(storage);
  // The stores' answer depends on the history alone: a history that ends several cells (the same
  // scenario through routes that get the same answers) is stored and read back once per run.
  const copies = new Map<string, { resumed: Outcome<History>; branches: Outcome<Omit<StoredCopies, 'resumed'>> }>();
  const storedCopiesOf = (history: History, text: string) => {
    let c = copies.get(text);
    if (!c) {
      c = { branches: settle(() => branchCopies(history, stores)), resumed: settle(() => resumeCopy(history, stores)) };
      copies.set(text, c);
    }
    return c;
  };
  const behaviours: RetentionBehaviour[] = ['survives-compaction', 'survives-branch', 'survives-resume'];
  const guarded = (behaviour: RetentionBehaviour, fn: () => RetentionCheck): RetentionCheck => {
    try {
      return fn();
    } catch (err) {
      return fail(behaviour, `threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return {
    run(history, policy) {
      if (!holdsCarrier(history))
        return behaviours.map((behaviour) => ({
          behaviour,
          status: 'n/a',
          detail: 'the history holds no reasoning carrier',
        }));
      const text = JSON.stringify(history);
      const compaction = guarded('survives-compaction', () => checkCompaction(history, policy, storage, text));
      const stored = storedCopiesOf(history, text);
      return [
        compaction,
        guarded('survives-branch', () => checkBranch(history, policy, storage, valueOf(stored.branches))),
        guarded('survives-resume', () => checkResume(history, policy, storage, valueOf(stored.resumed))),
      ];
    },
    close: () => stores.close(),
  };
}
