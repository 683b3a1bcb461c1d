import type { HttpHandler } from './msw-core.js';
import { answerInProcess } from './answer-in-process.js';
import { SCENARIO_HEADER, type Finding } from '../../shared/findings/finding.js';
import { findingsHeader, readFindingsHeader } from '../../shared/findings/findings-record.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { FixtureStore } from '../fixtures/fixture-store.js';
import { followAnswer, type FollowAnswer } from '../answers/follow/follow-answer.js';
import { rememberResponse } from '../answers/stored-responses.js';
import { IdenticalRequests } from './identical-requests.js';

// Which call of its conversation a request is, counted as the msw handlers count it: serve reads it through this door.
export { assistantTurns } from './assistant-turns.js';

/** The scenario name a follow-mode answer is logged under. */
export { FOLLOW_SCENARIO } from '../answers/follow/follow-answer.js';
import { acceptsWithoutFindings } from './fast-accept.js';
import type { Fault } from '../../shared/faults/fault-catalogue.js';
import type { InjectedFault, IssuedCarriers } from '../../shared/faults/fault-record.js';
import { FaultInjector, issuedCarriers } from '../faults/fault-injector.js';
import { providerHandlers } from './provider-handlers.js';
import { AS_IS_HEADER, unmodelledEndpointAnswer } from './around-generation.js';
import { ResponsesWebSocketConnection } from './responses-websocket.js';

export type { WebSocketTurn } from './responses-websocket.js';

/** The fixture that judges and frames follow-mode requests: every provider has one (a tool loop). */
const FOLLOW_FIXTURE = 'tool-call-with-reasoning';
const EMPTY_FINDINGS = findingsHeader([]);

/** Hop-by-hop and framing headers belong to each connection, not to the request or answer they carry. */
export const CONNECTION_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);

/** The fast path's verdict on one request: the candidate that accepted it and its answer, or none. */
interface FastVerdict {
  /** With the fixture's success headers for the call (request ids and the like), made once per verdict. */
  accepted?: { spec: ProviderSpec; stream: boolean; answer: FollowAnswer; headers: Record<string, string> };
}

/** One place a request may be answered: a provider's mock and the provider's real URL for the path asked. */
export interface AnswerCandidate {
  spec: ProviderSpec;
  url: string;
}

export interface HttpAnswerOptions {
  fixtures: FixtureStore;
  /** Milliseconds between streamed events of a fixture's answer (0: unpaced). */
  pace: number;
  /** Contested rules refuse instead of answering as their lenient side (docs/decisions/0044). */
  strict?: boolean;
  /** Scenario whose fixture answers requests that name none; without one the mocks follow the client. */
  defaultScenario?: string;
  /** Seed for the generated tool arguments in follow mode (same seed, same answers), and for the faults. */
  seed: number;
  /** Faults of specs/faults.json to inject into follow-mode answers, each once (src/provider/faults/). */
  faults?: readonly Fault[];
}

/**
 * What a provider's mock answers to one HTTP request, before any framing: the status, the answer's own
 * headers (connection headers left out), the findings, the tool a follow-mode answer called, and the
 * content, as stream events, a whole JSON body, or the mock's body as it is produced (a paced fixture
 * stays paced). How the bytes go over the wire (SSE or AWS binary frames) is the server's business.
 */
export interface HttpAnswer {
  spec: ProviderSpec;
  status: number;
  headers: Record<string, string>;
  findings: Finding[];
  tool?: string;
  /** True when the answer is a stream (its events, or a body of SSE). */
  streamed: boolean;
  /** A fault injected into this answer (an error in place of the provider's, or the answer changed). */
  fault?: InjectedFault;
  /** The connection is dropped after the content: a stream cut inside its answer. */
  cut?: boolean;
  /** The carriers a follow-mode answer issued, as the fault judge holds later requests against them. */
  issued?: IssuedCarriers;
  content:
    | { kind: 'events'; events: readonly SseEvent[] }
    | { kind: 'json'; bytes: Uint8Array | string }
    | { kind: 'body'; body: ReadableStream<Uint8Array> | null };
}

/** One request as the server read it: the method, its headers, the raw body and its JSON (undefined if none). */
export interface HttpAnswerRequest {
  method: string;
  /** The path the client asked, as it names the answer in messages. */
  path: string;
  /** The request's headers, connection headers left out; made only when msw needs them (not on the hot path). */
  headers: () => Headers;
  body: Uint8Array;
  /**
   * `body`'s bytes as a latin1 string, when the caller already made one (serve keys its parsed bodies by it): the
   * kept verdicts are looked up by the same string, so its hash is computed once. Must be exactly those bytes.
   */
  bodyText?: string;
  json: unknown;
  /** The scenario the request named, or null: follow mode. */
  scenario: string | null;
  /** Which call of its conversation this request is (the mocks' answer differs per call). */
  call: number;
}

/**
 * The mocks' answer to HTTP requests, on the provider side: the msw handlers made from the routes the matrix uses,
 * answered in process (answerInProcess: no interception, no network), and in follow mode the answer that calls the
 * client's own tools. An accepted follow-mode POST skips msw altogether (decision 0022): the same endpoint patterns,
 * model choice and judge, answered from the cached follow answer.
 */
export class HttpAnswers {
  private readonly handlers = new Map<string, HttpHandler[]>();
  /** The fixture's success headers for a follow-mode answer (request ids and the like), per spec and call. */
  private readonly headerCache = new Map<string, Record<string, string>>();
  private readonly injector: FaultInjector | undefined;
  /** Follow-mode verdicts and answers of requests seen before (identical-requests.ts); none with faults, which count. */
  private readonly seen = new IdenticalRequests<FastVerdict>();

  constructor(private readonly options: HttpAnswerOptions) {
    this.injector = options.faults?.length ? new FaultInjector(options.faults, options.seed) : undefined;
  }

  /** Faults named but never injected: no answer they could apply to came by. */
  faultsNotReached(): string[] {
    return this.injector?.pending() ?? [];
  }

  /**
   * The answer to a request, tried on each candidate in turn; undefined when no mock serves the path
   * (the server words that miss).
   */
  async answer(candidates: readonly AnswerCandidate[], request: HttpAnswerRequest): Promise<HttpAnswer | undefined> {
    const follow = request.scenario === null && request.method === 'POST';
    // A fault due on this request answers in place of the provider (an error status in the middle of a tool loop).
    const instead = follow && this.injector ? this.instead(candidates[0]?.spec, request) : undefined;
    if (instead) return instead;
    const fast = follow ? this.fast(candidates, request) : undefined;
    return fast ?? this.throughHandlers(candidates, request);
  }

  private instead(spec: ProviderSpec | undefined, request: HttpAnswerRequest): HttpAnswer | undefined {
    if (!spec || !this.injector) return undefined;
    const fault = this.injector.answerInstead({
      provider: spec.id,
      family: spec.family,
      body: request.json,
      stream: false,
    });
    if (!fault) return undefined;
    return {
      spec,
      status: fault.status,
      headers: { 'content-type': 'application/json', ...fault.headers },
      findings: [],
      streamed: false,
      fault: fault.record,
      content: { kind: 'json', bytes: JSON.stringify(fault.body) },
    };
  }

  /**
   * A follow-mode answer, as a due fault changes it; the carriers it issued when it went out whole. A stream reads only
   * the rendered events: the answer's JSON text is made for an unstreamed answer alone.
   */
  private followed(
    spec: ProviderSpec,
    request: HttpAnswerRequest,
    stream: boolean,
    follow: FollowAnswer,
  ): Pick<HttpAnswer, 'content' | 'fault' | 'cut' | 'issued'> {
    const rendered = follow.rendered;
    const shaped = this.injector?.shape(
      { provider: spec.id, family: spec.family, body: request.json, stream },
      rendered,
    );
    const answer = shaped?.rendered ?? rendered;
    const content: HttpAnswer['content'] = stream
      ? { kind: 'events', events: answer.stream }
      : { kind: 'json', bytes: shaped ? JSON.stringify(answer.body) : follow.bytes };
    if (!this.injector) return { content };
    return {
      content,
      // A stream that ends cleanly short of its end is not dropped, but issues nothing whole either.
      ...(shaped ? { fault: shaped.record, cut: shaped.cut && !shaped.endsCleanly } : {}),
      ...(shaped?.cut ? {} : { issued: issuedCarriers(answer) }),
    };
  }

  /** Follow mode, an accepted request: answered here, no msw round (the hot path of a `run`). */
  private fast(candidates: readonly AnswerCandidate[], request: HttpAnswerRequest): HttpAnswer | undefined {
    const key = this.injector ? undefined : this.seen.keyOf(candidates, request.call, request.body, request.bodyText);
    let verdict = key === undefined ? undefined : this.seen.get(key);
    if (verdict) {
      // What followAnswer does on each call besides answering: a stored response can be fetched by its id again.
      if (verdict.accepted)
        rememberResponse(verdict.accepted.spec, request.json, verdict.accepted.answer.rendered.body);
    } else {
      verdict = this.judgeFast(candidates, request);
      if (key !== undefined) this.seen.set(key, verdict);
    }
    const accepted = verdict.accepted;
    if (!accepted) return undefined;
    return {
      spec: accepted.spec,
      status: 200,
      headers: accepted.headers,
      findings: [],
      tool: accepted.answer.tool,
      streamed: accepted.stream,
      ...this.followed(accepted.spec, request, accepted.stream, accepted.answer),
    };
  }

  /** The first candidate that accepts the request without findings, and its follow answer; none: the msw path. */
  private judgeFast(candidates: readonly AnswerCandidate[], request: HttpAnswerRequest): FastVerdict {
    for (const candidate of candidates) {
      const accepted = acceptsWithoutFindings(candidate.spec, candidate.url, request.json);
      if (!accepted) continue;
      // The model as the client named it, in the path (Gemini, Bedrock) or the body.
      const answer = followAnswer(candidate.spec, request.json, request.call, this.options.seed, accepted.model);
      if (!answer) return {};
      const headers = this.fixtureHeaders(candidate.spec, request.call, accepted.stream);
      return { accepted: { spec: candidate.spec, stream: accepted.stream, answer, headers } };
    }
    return {};
  }

  /**
   * Responses WebSocket mode: a connection whose `response.create` turns are answered as POSTs to the same path
   * (responses-websocket.ts holds what the connection keeps between turns).
   */
  webSocket(
    spec: ProviderSpec,
    candidates: readonly AnswerCandidate[],
    request: Pick<HttpAnswerRequest, 'path' | 'headers' | 'scenario'>,
  ): ResponsesWebSocketConnection {
    return new ResponsesWebSocketConnection(spec, request.path, (json, call) =>
      this.answer(candidates, {
        method: 'POST',
        ...request,
        body: new TextEncoder().encode(JSON.stringify(json)),
        json,
        call,
      }),
    );
  }

  /**
   * The answer to a path no mock models on a known provider: the provider's own error shape, naming the method and
   * the path as the provider sees it (decision 0091).
   */
  unmodelled(spec: ProviderSpec, method: string, providerPath: string): HttpAnswer {
    const answer = unmodelledEndpointAnswer(spec, method, providerPath);
    return {
      spec,
      status: answer.status,
      headers: answer.headers,
      findings: [],
      streamed: false,
      content: { kind: 'json', bytes: JSON.stringify(answer.body) },
    };
  }

  private async throughHandlers(
    candidates: readonly AnswerCandidate[],
    request: HttpAnswerRequest,
  ): Promise<HttpAnswer | undefined> {
    const headers = request.headers();
    // Follow mode: the fixture only judges and frames the answer; its content is replaced below.
    if (request.scenario === null) headers.set(SCENARIO_HEADER, FOLLOW_FIXTURE);
    const method = request.method;
    for (const candidate of candidates) {
      const init =
        method === 'GET' || method === 'HEAD' ? { method, headers } : { method, headers, body: request.body };
      const response = await answerInProcess(this.handlersFor(candidate.spec), new Request(candidate.url, init));
      if (response) return this.fromResponse(candidate.spec, response, request);
    }
    return undefined;
  }

  private async fromResponse(spec: ProviderSpec, response: Response, request: HttpAnswerRequest): Promise<HttpAnswer> {
    const status = response.status;
    const findings = readFindingsHeader(
      response.headers,
      `${spec.label}'s answer to ${request.method} ${request.path}`,
    );
    const streamed = (response.headers.get('content-type') ?? '').includes('event-stream');
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!CONNECTION_HEADERS.has(name)) headers[name] = value;
    });
    // Lenient findings (contested rules, warnings) leave the request accepted: follow mode still answers it.
    // An answer the provider side marks final (a models list, a token count) is not a generation to follow.
    const asIs = response.headers.has(AS_IS_HEADER);
    if (!asIs && request.scenario === null && status >= 200 && status < 300 && findings.every((f) => f.lenient)) {
      const follow = followAnswer(spec, request.json, request.call, this.options.seed);
      if (follow) {
        await response.body?.cancel();
        return {
          spec,
          status,
          headers,
          findings,
          tool: follow.tool,
          streamed,
          ...this.followed(spec, request, streamed, follow),
        };
      }
    }
    // A final JSON answer (a compact answer, a token count) is read whole, so serve's judges can read it as they read
    // a followed one: a compaction item issued by /responses/compact has to come back like one issued in a turn.
    if (asIs && !streamed && (response.headers.get('content-type') ?? '').includes('json'))
      return {
        spec,
        status,
        headers,
        findings,
        streamed,
        content: { kind: 'json', bytes: new Uint8Array(await response.arrayBuffer()) },
      };
    return { spec, status, headers, findings, streamed, content: { kind: 'body', body: response.body } };
  }

  private handlersFor(spec: ProviderSpec): HttpHandler[] {
    let list = this.handlers.get(spec.id);
    if (!list) {
      const mockOptions = {
        pace: this.options.pace,
        ...(this.options.strict ? { strict: true } : {}),
        ...(this.options.defaultScenario ? { defaultScenario: this.options.defaultScenario } : {}),
      };
      this.handlers.set(spec.id, (list = providerHandlers(spec, this.options.fixtures, mockOptions)));
    }
    return list;
  }

  private fixtureHeaders(spec: ProviderSpec, call: number, stream: boolean): Record<string, string> {
    const key = `${spec.id}\u0000${call}\u0000${stream}`;
    const hit = this.headerCache.get(key);
    if (hit) return hit;
    const exchanges = this.options.fixtures.get(spec.id, FOLLOW_FIXTURE)?.fixture.exchanges ?? [];
    const recorded = exchanges[Math.min(call, exchanges.length - 1)]?.response.headers ?? {};
    const made = {
      ...Object.fromEntries(Object.entries(recorded).filter(([name]) => !CONNECTION_HEADERS.has(name))),
      ...EMPTY_FINDINGS,
      ...(stream
        ? { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }
        : { 'content-type': 'application/json' }),
    };
    if (this.headerCache.size < 4096) this.headerCache.set(key, made);
    return made;
  }
}
