import type { OutboundRequest, RequestOptions } from '../shared/wire/outbound-request.js';
import type { History, Message, StandardCarrierField } from '../shared/history/history.js';
import type { ProviderSpec } from '../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../shared/route-table/route-table.js';
import type { FamilyId } from '../shared/wire/families.js';
import type { ExchangeResponse } from '../shared/transport/transport.js';

/**
 * The seam between the conformance run and whatever builds requests. The run owns the scenario,
 * the transport (mocks) and the judging; the engine under test turns "this history, this target"
 * into requests, and, for the operations it implements, retries an unknown-field rejection, reads
 * answers back into history, stores and compacts sessions. The built-in engine
 * (src/tools/services/engine-adapters/built-in-engine.ts) is one implementation, injected by the callers
 * (check, report, gate, recorder); `check --engine` plugs an external one here over JSON lines
 * (src/tools/services/engine-adapters/external-engine.ts). The judge imports no engine code (types only)
 * and never asks the engine what should have been sent: it is told the target as an agent's
 * configuration would say it, resolves its own route, and the judge holds the result against the
 * route table, the provider specs and the history (decision 0027; what is judged when an engine
 * implements less: decision 0064).
 */

/** Sends one request to the provider (mock) and gives its answer; supplied by the run. */
export type SendRequest = (request: OutboundRequest) => Promise<ExchangeResponse>;

/**
 * The target as an agent's configuration names it: provider id, base-URL host, model id, as typed
 * (a scenario may present a host in capitals, a look-alike host or another model id form, and the
 * engine must resolve its route from that), plus the family and the provider's path for the model.
 */
export interface EngineTarget {
  provider: string;
  host: string;
  model: string;
  family: FamilyId;
  baseUrl: string;
  path: string;
}

/** What the engine is given to build one turn. */
export interface TurnInput {
  history: History;
  target: EngineTarget;
  /**
   * The route table the run gates. The built-in engine resolves its route from it; an external
   * engine keeps its own table and ignores it (its bodies are judged against this one all the same).
   */
  table: RouteTable;
  spec: ProviderSpec;
  options: RequestOptions;
}

/** What the engine is given to read an answer: the same target, table and spec as the turn. */
/**
 * What reading an answer may use. `history` and `sent`, when given, are the history the request was built from and
 * the request body sent: an engine may repair the history as the answer reports (a provider that dropped a replayed
 * block names where it sat in the request).
 */
export type AnswerInput = Pick<TurnInput, 'target' | 'table' | 'spec'> & { history?: History; sent?: unknown };

export interface TurnAttempt {
  /** 1 for the request the route asked for; 2 for a fallback retry (a third one is the engine's mistake). */
  attempt: number;
  request: OutboundRequest;
  response: ExchangeResponse;
}

export interface TurnResult {
  /** Every request sent for this turn, in order (at most two when the engine is right). */
  attempts: TurnAttempt[];
  /** Fields the engine newly withheld after an unknown-field rejection (empty when none or unknown). */
  withheld: StandardCarrierField[];
}

/**
 * One engine session: created per cell (a fallback verdict learned in one cell must not leak into
 * the next), asked once per scenario call.
 */
export interface EngineSession {
  /** Builds and sends one turn through `send`, retrying at most once. Throws when it cannot build. */
  turn(input: TurnInput, send: SendRequest): Promise<TurnResult>;
  /** Reads a 2xx answer (a JSON body, or the text of a stream) into the assistant message appended to history. */
  readAnswer(response: ExchangeResponse, input: AnswerInput): Promise<Message>;
}

/**
 * The operations beyond building a request that an engine may implement, and what the judge
 * judges through each (decision 0064). What an engine does not implement is reported as "not
 * judged: the engine does not implement X", never as passed.
 */
export const ENGINE_OPERATIONS = ['fallback', 'read', 'stream', 'store', 'compact'] as const;
export type EngineOperation = (typeof ENGINE_OPERATIONS)[number];

export interface EngineUnderTest {
  /** Shown in reports ("built-in", or the external command). */
  name: string;
  /** The operations it implements; building requests is always there. */
  operations: ReadonlySet<EngineOperation>;
  /**
   * `harm` for another team's engine: a choice the providers accept that loses no reasoning is a warning, not a
   * failure (decision 0102). Absent or `contract`: this project's own engine, held to its stricter contract.
   */
  judgedBy?: 'contract' | 'harm';
  startSession(): EngineSession;
  /** The request the engine would build for this history, unsent (compared byte for byte after resume, branch). */
  buildRequest?(history: History, input: Omit<TurnInput, 'history'>): Promise<OutboundRequest>;
  /** Its session store ('store'). */
  storage?: EngineStorage;
  /** Its compaction ('compact'). */
  compaction?: EngineCompaction;
}

/** A session store, driven as a black box: the judge hands in a history and compares what comes back. */
export interface EngineStorage {
  /** Opens the engine's session store in `file`, or in memory for ':memory:'. */
  openStore(file: string): Promise<StoreUnderTest>;
}

/** One open store: sessions are opaque ids. */
export interface StoreUnderTest {
  importHistory(history: History): Promise<string>;
  resume(id: string): Promise<History>;
  /** A new session holding the first `atTurn` messages of `id`. */
  branch(id: string, atTurn: number): Promise<string>;
  append(id: string, messages: readonly Message[]): Promise<void>;
  /**
   * One turn of a stored session as the engine's agent loop runs it: resume the session (its
   * history and what it learned, such as fallback verdicts), build and send through `send`
   * (retrying at most once), and store the answer with what the turn learned.
   */
  turn(id: string, input: Omit<TurnInput, 'history'>, send: SendRequest): Promise<TurnResult>;
  close(): Promise<void>;
}

export interface EngineCompaction {
  /** The engine's token estimate for the history on the target's route (the preflight). */
  estimateTokens(history: History, input: Omit<TurnInput, 'history'>): Promise<number>;
  /** Compacts to `budget` tokens for the target's route. Must not modify `history`. */
  compact(history: History, budget: number, input: Omit<TurnInput, 'history'>): Promise<CompactionUnderTest>;
}

export interface CompactionUnderTest {
  status: 'unchanged' | 'compacted' | 'over-budget';
  history: History;
  /** For each message of `history`: its index in the input, or null for one the compaction wrote (a summary). */
  kept: (number | null)[];
  estimateBefore: number;
  estimateAfter: number;
  /** How many input messages were not carried over. */
  dropped: number;
  /** Why the result is still over budget. */
  reason?: string;
}
