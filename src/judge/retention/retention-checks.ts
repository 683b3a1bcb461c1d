import { mkdtempSync, rmSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineUnderTest, StoreUnderTest, TurnInput } from '../engine-under-test.js';
import type { Check } from '../conformance/verdict.js';
import { isEngineFailure } from '../../shared/errors/engine-failed-error.js';
import type { CellRetention, RunCall } from '../conformance/run-scenario.js';
import { wireCarrierKeys } from '../conformance/wire-carriers.js';
import { compactionBlobs, requestHolds } from '../conformance/compaction-kept.js';
import type { History, Message } from '../../shared/history/history.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';
import type { OutboundRequest } from '../../shared/wire/outbound-request.js';

export type RetentionBehaviour = 'survives-compaction' | 'survives-branch' | 'survives-resume' | 'compaction-kept';
export interface RetentionCheck extends Check {
  behaviour: RetentionBehaviour;
}

const CARRIER_KEYS = ['reasoning_content', 'reasoning', 'reasoning_details', 'native'] as const;

/** How two JSON values are compared: byte for byte, or as values (key order aside). */
type Equal = (a: unknown, b: unknown) => boolean;
const sameBytes: Equal = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sameValues: Equal = (a, b) => isDeepStrictEqual(a, b);

/** The first carrier of `after` that is not byte-identical to `before`'s (or not equal by `equal`), or null. */
export function carrierDifference(before: Message, after: Message, equal: Equal = sameBytes): string | null {
  for (const key of CARRIER_KEYS) {
    const [x, y] = [before[key], after[key]];
    // The same value (a store that hands back what it was given, or both absent) is the same bytes.
    if (x === y || equal(x, y)) continue;
    const [a, b] = [x, y].map((v) => (v === undefined ? undefined : JSON.stringify(v)));
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
  equal: Equal = sameBytes,
): string | null {
  for (const [i, j] of pairs) {
    const diff = carrierDifference(original[i]!, copy[j]!, equal);
    if (diff) return `message ${i} (${original[i]!.role}) ${diff}`;
  }
  return null;
}

const identity = (n: number): Iterable<[number, number]> =>
  Array.from({ length: n }, (_, i): [number, number] => [i, i]);

/** The judge's own reading of "holds reasoning": any carrier key present on any message. */
const holdsCarrier = (history: History) =>
  history.messages.some((m) => CARRIER_KEYS.some((key) => m[key] !== undefined));

interface OpenStores {
  writer: StoreUnderTest;
  reader: StoreUnderTest;
  memory: StoreUnderTest;
}

/**
 * The stores the checks write to, opened once per run (opening a SQLite database and running its
 * migrations costs more than a cell's checks): a writer and a second, independent connection on one
 * state.db file in a temp folder (resume reads what the writer committed back from the file), and a
 * memory database for branching (all inside SQLite: a file adds nothing there). Sessions are
 * independent by id, so cells share them.
 */
class RunStores {
  private dir: string | undefined;
  private opened: Promise<OpenStores> | undefined;
  constructor(private readonly engine: EngineUnderTest) {}

  get(): Promise<OpenStores> {
    this.opened ??= this.open();
    return this.opened;
  }

  private async open(): Promise<OpenStores> {
    const storage = this.engine.storage!;
    this.dir = mkdtempSync(join(tmpdir(), 'rr-retention-'));
    const file = join(this.dir, 'state.db');
    const stores: StoreUnderTest[] = [];
    try {
      stores.push(await storage.openStore(file), await storage.openStore(file), await storage.openStore(':memory:'));
    } catch (err) {
      for (const s of stores) await s.close();
      throw err;
    }
    return { writer: stores[0]!, reader: stores[1]!, memory: stores[2]! };
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    if (opened) {
      try {
        for (const s of Object.values(await opened)) await s.close();
      } catch {
        /* a store that failed to open has nothing to close */
      }
    }
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

async function resumeCopy(history: History, stores: RunStores): Promise<History> {
  const { writer, reader } = await stores.get();
  return reader.resume(await writer.importHistory(history));
}

async function branchCopies(history: History, stores: RunStores): Promise<Omit<StoredCopies, 'resumed'>> {
  const store = (await stores.get()).memory;
  const parent = await store.importHistory(history);
  const all = await store.branch(parent, history.messages.length);
  const half = await store.branch(parent, Math.floor(history.messages.length / 2));
  const branched = await store.resume(all);
  const halfBranch = await store.resume(half);
  // Independence: a turn added to the branch must not appear in the parent.
  await store.append(all, [{ role: 'user', content: 'branch-only turn' }]);
  return { branched, halfBranch, parentAfter: await store.resume(parent) };
}

type Target = Omit<TurnInput, 'history'>;
/** The request the original history gives, and its JSON text. */
type LiveRequest = () => Promise<{ request: OutboundRequest; text: string }>;
const KEY_ORDER =
  "no provider reads key order and no byte of reasoning is lost, so for an engine under --engine it is a warning; this project's own engine keeps stored carriers byte for byte (docs/decisions/0102-foreign-engines-judged-by-harm.md)";
const pass = (behaviour: RetentionBehaviour, detail: string): RetentionCheck => ({ behaviour, status: 'pass', detail });
const fail = (behaviour: RetentionBehaviour, detail: string): RetentionCheck => ({ behaviour, status: 'fail', detail });

/**
 * Per conformance cell: does the history's reasoning survive the engine's compaction, branching and
 * a resume from a state.db file, byte for byte, does the route get the same request afterwards, and
 * does a resumed session remember what its fallback learned? The expectation is the judge's own:
 * every carrier it handed in comes back unchanged (no engine selection is asked). n/a when the
 * history holds no carrier at all (nothing could be lost); each part runs only when the engine
 * implements its operation (store, compact). One instance per run: call close() when it ends.
 */
export function retentionChecks(
  engine: EngineUnderTest,
  table: RouteTable,
): { run: CellRetention; close(): Promise<void> } {
  const stores = new RunStores(engine);
  const harm = engine.judgedBy === 'harm';
  // The stores' answer depends on the history alone: a history that ends several cells (the same
  // scenario through routes that get the same answers) is stored and read back once per run.
  const copies = new Map<string, { resumed: Promise<History>; branches: Promise<Omit<StoredCopies, 'resumed'>> }>();
  /** Messages the engine wrote as summaries, by identity (a second compaction must keep or replace them). */
  const summaries = new WeakSet<Message>();
  const guarded = async (behaviour: RetentionBehaviour, fn: () => Promise<RetentionCheck>): Promise<RetentionCheck> => {
    try {
      return await fn();
    } catch (err) {
      if (isEngineFailure(err)) throw err; // the engine broke the protocol: no verdict, the run stops
      return fail(behaviour, `threw: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  /**
   * Carriers compared byte for byte. An engine judged by harm whose copy differs only in key order (no provider
   * reads key order, no byte of reasoning is lost) gets a note, which makes the check a warning, not a failure.
   */
  function kept(
    original: readonly Message[],
    copy: readonly Message[],
    pairs: Iterable<[number, number]>,
    notes: string[],
  ): string | null {
    const list = [...pairs];
    const diff = compareAll(original, copy, list);
    if (!diff) return null;
    if (harm && compareAll(original, copy, list, sameValues) === null) {
      notes.push(`${diff} (key order only)`);
      return null;
    }
    return diff;
  }
  /**
   * Does a copy give the request the original history gives (built once per cell: `live`)? Under harm, one that
   * differs only in key order is a note.
   */
  async function sameRequest(copy: History, live: LiveRequest, target: Target, notes: string[], what: string) {
    const x = await engine.buildRequest!(copy, target);
    const y = await live();
    if (JSON.stringify(x) === y.text) return true;
    if (harm && isDeepStrictEqual(x, y.request)) {
      notes.push(`${what} differs from the original in key order only`);
      return true;
    }
    return false;
  }
  const verdict = (behaviour: RetentionBehaviour, notes: string[], detail: string): RetentionCheck =>
    notes.length === 0
      ? pass(behaviour, detail)
      : { behaviour, status: 'warn', detail: `${detail}, except: ${notes.join('; ')}: ${KEY_ORDER}` };

  async function checkResume(
    history: History,
    target: Target,
    resumed: History,
    live: LiveRequest,
  ): Promise<RetentionCheck> {
    const route = target.spec.id;
    const notes: string[] = [];
    if (resumed.messages.length !== history.messages.length)
      return fail('survives-resume', `resumed ${resumed.messages.length} of ${history.messages.length} messages`);
    const diff = kept(history.messages, resumed.messages, identity(history.messages.length), notes);
    if (diff) return fail('survives-resume', `after resume from state.db, ${diff}`);
    if (!(await sameRequest(resumed, live, target, notes, `the ${route} request built from the resumed session`)))
      return fail('survives-resume', `the ${route} request built from the resumed session differs from the live one`);
    return verdict(
      'survives-resume',
      notes,
      `${history.messages.length} messages reloaded from a state.db file; carriers and the ${route} request byte-identical`,
    );
  }

  async function checkBranch(
    history: History,
    target: Target,
    { branched, halfBranch, parentAfter }: Omit<StoredCopies, 'resumed'>,
    live: LiveRequest,
  ): Promise<RetentionCheck> {
    const route = target.spec.id;
    const notes: string[] = [];
    let diff = kept(history.messages, branched.messages, identity(history.messages.length), notes);
    if (diff) return fail('survives-branch', `in the branch, ${diff}`);
    diff = kept(history.messages, halfBranch.messages, identity(halfBranch.messages.length), notes);
    if (diff) return fail('survives-branch', `in the branch at turn ${halfBranch.messages.length}, ${diff}`);
    if (!(await sameRequest(branched, live, target, notes, `the ${route} request built from the branch`)))
      return fail('survives-branch', `the ${route} request built from the branch differs from the original`);
    if (parentAfter.messages.length !== history.messages.length)
      return fail('survives-branch', 'a turn appended to the branch appeared in the parent session');
    diff = kept(history.messages, parentAfter.messages, identity(history.messages.length), notes);
    if (diff) return fail('survives-branch', `in the parent after the branch changed, ${diff}`);
    return verdict(
      'survives-branch',
      notes,
      `branches at ${history.messages.length} and ${halfBranch.messages.length} keep every carrier; the ${route} request is byte-identical; the parent is unaffected`,
    );
  }

  /** One compaction, judged: carriers and retained assistant turns whole, summaries kept, the preflight agreeing. */
  async function compactOnce(
    history: History,
    budget: number,
    target: Target,
    round: string,
  ): Promise<{
    check?: RetentionCheck;
    result: Awaited<ReturnType<NonNullable<EngineUnderTest['compaction']>['compact']>>;
  }> {
    const compaction = engine.compaction!;
    const before = JSON.stringify(history);
    const result = await compaction.compact(history, budget, target);
    const failed = (detail: string) => ({ check: fail('survives-compaction', `${round}${detail}`), result });
    if (JSON.stringify(history) !== before) return failed('compaction modified the history it was given');
    const pairs = result.kept.flatMap((from, j): [number, number][] => (from === null ? [] : [[from, j]]));
    const diff = compareAll(history.messages, result.history.messages, pairs);
    if (diff) return failed(`after compaction, retained ${diff}`);
    // A retained assistant turn must come back whole (its tool calls decide where a must-echo pad goes),
    // judged on the message itself rather than by asking the engine's carrier selection.
    for (const [i, j] of pairs) {
      if (history.messages[i]!.role !== 'assistant') continue;
      const changed = messageDifference(history.messages[i]!, result.history.messages[j]!);
      if (changed)
        return failed(
          `message ${i}: the retained assistant turn changed after compaction (${changed}), so what ${target.spec.id} is sent changes`,
        );
    }
    // Messages leave a history only by being summarized (or as a checkpoint a newer one shadows): what was
    // dropped must be stood for by a summary the result holds, written now or kept from before.
    if (result.dropped > 0 && !result.kept.includes(null) && !pairs.some(([i]) => summaries.has(history.messages[i]!)))
      return failed(
        `${result.dropped} message(s) were dropped and no summary stands for them (the newest checkpoint must be kept)`,
      );
    if (result.status === 'compacted') {
      // The tail walk and the preflight must price alike, or the next preflight compacts again (the seed's loop).
      const preflight = await compaction.estimateTokens(result.history, target);
      if (preflight > budget)
        return failed(
          `the compacted history fits the budget by the compaction's own count (${result.estimateAfter} <= ${budget}) but the preflight estimate prices it at ${preflight}: the next turn would compact again (opaque carriers priced differently?)`,
        );
    }
    result.kept.forEach((from, j) => {
      if (from === null) summaries.add(result.history.messages[j]!);
    });
    return { result };
  }
  async function checkCompaction(history: History, target: Target): Promise<RetentionCheck> {
    const compaction = engine.compaction!;
    const budget = Math.max(1, Math.floor((await compaction.estimateTokens(history, target)) / 2));
    const first = await compactOnce(history, budget, target, '');
    if (first.check) return first.check;
    const { result } = first;
    const recompacted = await compaction.compact(result.history, budget, target);
    if (result.status === 'compacted' && recompacted.status !== 'unchanged')
      return fail(
        'survives-compaction',
        `the preflight disagrees with the tail walk: a compacted history (${result.estimateAfter} <= ${budget}) would be compacted again`,
      );
    let second = '';
    if (result.kept.includes(null)) {
      // A later turn compacts the compacted history again: its summary is now the newest checkpoint before the
      // last user message, which must survive (or be summarized into a newer one), and so must every carrier.
      const next: History = { messages: [...result.history.messages, { role: 'user', content: 'And the next step?' }] };
      const nextBudget = Math.max(1, Math.floor((await compaction.estimateTokens(next, target)) / 2));
      const again = await compactOnce(next, nextBudget, target, 'second compaction: ');
      if (again.check) return again.check;
      second = `; compacted again to ${nextBudget}: ${again.result.status}`;
    }
    return pass(
      'survives-compaction',
      `budget ${budget} of ${result.estimateBefore}: ${result.status}, ${result.kept.filter((k) => k !== null).length} messages retained with carriers byte-identical, ${result.dropped} summarized${result.reason ? ` (${result.reason.split(';')[0]})` : ''}${second}`,
    );
  }

  /**
   * compaction-kept, the storage and compaction part: the newest compaction item a provider issued (the judge's own
   * reading of the history) that the route is sent from the live history must still be sent, whole, after the
   * engine's own compaction (at half the estimate, as survives-compaction), a branch and a resume. The provider
   * ignores what stands before it: an engine that summarizes, drops or edits it loses the whole earlier conversation.
   */
  async function checkCompactionKept(
    history: History,
    target: Target,
    stored: { branch: History; resume: History },
    liveRequest: LiveRequest,
  ): Promise<RetentionCheck> {
    const blob = compactionBlobs(history.messages).at(-1);
    if (blob === undefined) return { behaviour: 'compaction-kept', status: 'n/a', detail: 'no compaction item' };
    const live = (await liveRequest()).request;
    if (!requestHolds(live.body, blob))
      return {
        behaviour: 'compaction-kept',
        status: 'n/a',
        detail: `the ${target.spec.id} request holds no compaction item`,
      };
    const after: [string, History][] = [];
    if (engine.compaction) {
      const budget = Math.max(1, Math.floor((await engine.compaction.estimateTokens(history, target)) / 2));
      after.push(['the engine’s own compaction', (await engine.compaction.compact(history, budget, target)).history]);
    }
    after.push(['a branch', stored.branch], ['a resume from state.db', stored.resume]);
    for (const [what, copy] of after) {
      const request = await engine.buildRequest!(copy, target);
      if (!requestHolds(request.body, blob))
        return fail(
          'compaction-kept',
          `after ${what}, the ${target.spec.id} request no longer holds the provider’s compaction item whole: the provider ignores what came before it, so the earlier conversation is lost`,
        );
    }
    return pass(
      'compaction-kept',
      `the provider’s newest compaction item goes back whole after ${after.map(([w]) => w).join(', ')}`,
    );
  }

  /**
   * survives-resume, the fallback's part: a call whose unknown-field rejection the engine learned from is replayed
   * as a stored session's turn (the engine stores the answer with the verdict), then the session is resumed by a
   * second connection and asked for the next turn: its first request must not carry the refused carrier again.
   */
  async function checkVerdictKept(call: RunCall, target: Target): Promise<RetentionCheck | undefined> {
    const { writer, reader } = await stores.get();
    const id = await writer.importHistory(call.historyBefore);
    const input = { ...target, target: call.target, spec: call.spec };
    const first = await writer.turn(id, input, call.send);
    if (first.withheld.length === 0) return undefined; // the provider did not refuse again: nothing to remember
    await writer.append(id, [{ role: 'user', content: 'And the next step?' }]);
    const resumed = await reader.turn(id, input, call.send);
    const opening = resumed.attempts[0];
    const again = opening
      ? wireCarrierKeys(opening.request.body).filter((k) => first.withheld.includes(k as never))
      : [];
    if (again.length > 0)
      return fail(
        'survives-resume',
        `call ${call.call}: the session resumed from state.db sent ${again.join(', ')} again on its first request, though it had learned that (${call.target.provider}, ${call.target.host}, ${call.target.model}) refuses it: the verdict was not stored with the exchange`,
      );
    return pass(
      'survives-resume',
      `call ${call.call}: the verdict on ${first.withheld.join(', ')} was stored with the exchange; the resumed session withheld it from its first request`,
    );
  }

  return {
    async run(history, { target, spec, options }, calls) {
      const input: Target = { target, table, spec, options };
      const out: RetentionCheck[] = [];
      const holds = holdsCarrier(history);
      if (!holds)
        out.push(
          ...(['survives-compaction', 'survives-branch', 'survives-resume'] as const).map(
            (behaviour): RetentionCheck => ({
              behaviour,
              status: 'n/a',
              detail: 'the history holds no reasoning carrier',
            }),
          ),
        );
      if (engine.compaction && holds)
        out.push(await guarded('survives-compaction', () => checkCompaction(history, input)));
      if (engine.storage && engine.buildRequest && holds) {
        const text = JSON.stringify(history);
        let c = copies.get(text);
        if (!c) {
          c = { branches: branchCopies(history, stores), resumed: resumeCopy(history, stores) };
          // Settled either way: each cell with this history reports a failure the same way.
          c.branches.catch(() => undefined);
          c.resumed.catch(() => undefined);
          copies.set(text, c);
        }
        const { branches, resumed } = c;
        // The original history's request, built once for the cell: every copy is compared with it.
        let built: Promise<{ request: OutboundRequest; text: string }> | undefined;
        const live: LiveRequest = () =>
          (built ??= engine.buildRequest!(history, input).then((request) => ({
            request,
            text: JSON.stringify(request),
          })));
        out.push(await guarded('survives-branch', async () => checkBranch(history, input, await branches, live)));
        out.push(await guarded('survives-resume', async () => checkResume(history, input, await resumed, live)));
        const kept = await guarded('compaction-kept', async () =>
          checkCompactionKept(history, input, { branch: (await branches).branched, resume: await resumed }, live),
        );
        if (kept.status !== 'n/a') out.push(kept);
      }
      if (engine.storage) {
        for (const call of calls.filter((c) => c.learned.length > 0)) {
          const checked = await guarded(
            'survives-resume',
            async () => (await checkVerdictKept(call, input)) ?? pass('survives-resume', 'nothing to remember'),
          );
          if (checked.detail !== 'nothing to remember') out.push(checked);
        }
      }
      return out;
    },
    close: () => stores.close(),
  };
}
