import type { OutboundRequest, RequestOptions } from '../shared/wire/outbound-request.js';
import type { History, Message } from '../shared/history/history.js';
import type { ProviderSpec } from '../shared/provider-specs/provider-spec.js';
import type { RoutePolicy } from '../shared/route-table/route-table.js';
import type { ExchangeResponse } from '../shared/transport/transport.js';

/**
 * The seam between the conformance run and whatever builds requests. The run owns the scenario,
 * the transport (mocks) and the judging; the engine under test only turns "this history, this
 * route" into requests and reads answers back into history, and (optionally) stores and compacts
 * sessions. The built-in engine (src/tools/engine-adapters/built-in-engine.ts: this project's
 * replayForRoute + unknown-field fallback, its session store and compaction) is one implementation,
 * injected by the callers (check, report, gate, recorder); `check --engine` plugs an external one
 * here. The judge imports no engine code (types only) and never asks the engine what should have
 * been sent. See docs/decisions for the seam.
 */

/** Sends one request to the provider (mock) and gives its answer; supplied by the run. */
export type SendRequest = (request: OutboundRequest) => Promise<ExchangeResponse>;

/** One turn to build: the history so far, the route the table resolved, and per-request options. */
export interface TurnInput {
  history: History;
  policy: RoutePolicy;
  spec: ProviderSpec;
  options: RequestOptions;
}

export interface TurnAttempt {
  /** 1 for the request the route table asked for; 2 for a fallback retry. */
  attempt: 1 | 2;
  request: OutboundRequest;
  response: ExchangeResponse;
}

export interface TurnResult {
  /** Every request sent for this turn, in order (at most two). */
  attempts: TurnAttempt[];
  /** Fields the engine newly withheld after an unknown-field rejection (empty when none). */
  withheld: string[];
}

/**
 * One engine session: created per cell (a fallback verdict learned in one cell must not leak into
 * the next), asked once per scenario call.
 */
export interface EngineSession {
  /** Builds and sends one turn through `send`, retrying at most once. Throws when it cannot build. */
  turn(input: TurnInput, send: SendRequest): Promise<TurnResult>;
  /** Reads a 2xx answer into the assistant message appended to history. */
  readAnswer(response: ExchangeResponse, policy: RoutePolicy, spec: ProviderSpec): Message;
}

export interface EngineUnderTest {
  /** Shown in reports ("built-in", or the external command). */
  name: string;
  startSession(): EngineSession;
  /**
   * The engine's own session storage and compaction, for the retention checks (compaction, branch,
   * resume). Absent: the engine keeps no sessions the judge can reach, and those checks do not apply.
   */
  storage?: EngineStorage;
}

/**
 * What the retention checks drive, as a black box: the judge hands in a history and compares what
 * comes back with what it handed in (its own carrier comparison), never asking the engine which
 * carriers a route should get.
 */
export interface EngineStorage {
  /** The request the engine would build for this history on this route, unsent (compared byte for byte). */
  buildRequest(history: History, policy: RoutePolicy): OutboundRequest;
  /** Opens the engine's session store in `file`, or in memory for ':memory:'. */
  openStore(file: string): StoreUnderTest;
  /** The engine's token estimate for the history on this route (the judge picks a budget from it). */
  estimateTokens(history: History, policy: RoutePolicy): number;
  /** Compacts to `budget` tokens for this route. Must not modify `history`. */
  compact(history: History, budget: number, policy: RoutePolicy): CompactionUnderTest;
}

/** A session store: sessions are opaque ids. */
export interface StoreUnderTest {
  importHistory(history: History): number;
  resume(id: number): History;
  /** A new session holding the first `atTurn` messages of `id`. */
  branch(id: number, atTurn: number): number;
  append(id: number, messages: readonly Message[]): void;
  close(): void;
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
