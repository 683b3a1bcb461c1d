import type { OutboundRequest, RequestOptions } from '../families/family.js';
import type { History, Message } from '../model/history.js';
import type { ProviderSpec } from '../providers/provider-spec.js';
import type { RoutePolicy } from '../routes/route-table.js';

/**
 * The seam between the conformance run and whatever builds requests. The run owns the scenario,
 * the transport (mocks) and the judging; the engine under test only turns "this history, this
 * route" into requests and reads answers back into history. The built-in engine (this project's
 * replayForRoute + unknown-field fallback) is one implementation; `check --engine` plugs an
 * external one here. The judge never asks the engine what should have been sent.
 */

/** One provider answer as the transport hands it over: JSON when it parsed, raw text otherwise (SSE). */
export interface ExchangeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

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
}
