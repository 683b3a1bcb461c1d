import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as http2Constants } from 'node:http2';
import { policyFor } from '../../../shared/route-table/policy-for.js';
import { wireCarrierKeys } from '../../../judge/conformance/wire-carriers.js';
import { CALL_HEADER, SCENARIO_HEADER, type Finding } from '../../../shared/findings/finding.js';
import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import {
  assistantTurns,
  CONNECTION_HEADERS,
  FOLLOW_SCENARIO,
  HttpAnswers,
} from '../../../provider/handlers/answer-http-request.js';
import type { SecretValue } from '../recorder/redact.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy, RouteTable } from '../../../shared/route-table/route-table.js';
import { clientOf, RUN_HEADER } from './client-identity.js';
import { endpointIndex } from './endpoint-index.js';
import { redactBody, secretsFromEnv } from './redact-body.js';
import { endpointCandidates, type EndpointCandidate } from './resolve-endpoint.js';
import { FindingsSoFar } from './findings-so-far.js';
import { knownScenarioIds, MAX_BODY_BYTES, readBodyWithin, scenarioRefusal } from './request-limits.js';
import { KnownBodies } from './known-bodies.js';
import { IsoClock } from './iso-clock.js';
import { BytesInFlight } from './bytes-in-flight.js';
import type { ServeLogEntry, ServeMiss } from './serve-log.js';
import { sendsBackReasoning } from './sends-back-reasoning.js';
import { listenHttp1AndH2c, type AnyRequest, type AnyResponse } from './listen-h1-h2c.js';
import { reframe, streamBytes, streamWire, writeEvents } from './stream-wire.js';
import type { Fault } from '../../../shared/faults/fault-catalogue.js';
import type { InjectedFault, IssuedCarriers } from '../../../shared/faults/fault-record.js';
import { ServeFaults } from './serve-faults.js';
import { ServeCompaction, type ServedAnswer } from './serve-compaction.js';
import { responsesWebSocketUpgrade } from './responses-websocket-upgrade.js';

/**
 * Serve's header deadline: every client of a loopback mock sends its headers at once, so a
 * connection still short of them after 10 s is a stalled or hostile sender (Node's 60 s kept such
 * sockets open six times longer). `serve --header-timeout` changes it.
 */
export const DEFAULT_SERVE_HEADER_TIMEOUT_MS = 10_000;

export interface ServeOptions {
  /** Largest request body accepted (default MAX_BODY_BYTES, 32 MiB); larger ones are answered 413. */
  maxBodyBytes?: number;
  /**
   * Request-body bytes held at once across all requests (default 32 MiB); a body beyond it is
   * answered 503 with Retry-After (bytes-in-flight.ts).
   */
  maxBytesInFlight?: number;
  /** 0 picks a free port. */
  port: number;
  /** How long a client has to send a request's headers, in ms (default 10 s); see listen-h1-h2c.ts. */
  headerTimeoutMs?: number;
  specs: ProviderSpec[];
  fixtures: FixtureStore;
  table: RouteTable;
  /**
   * Scenario whose fixture answers requests that carry no x-reasoning-replay-scenario header.
   * Without one, the mocks follow the client: they call the client's own tools (see follow-answer.ts).
   */
  defaultScenario?: string;
  pace?: number;
  /**
   * Called with each request's log line before its answer ends; a promise returned holds the answer's end until it
   * settles (a log written in batches, batched-lines.ts). Any other value is ignored.
   */
  log: (entry: ServeLogEntry) => unknown;
  /** Put each request body, redacted, in its log line. */
  logBodies?: boolean;
  /** Names this server's requests in the log; a request's x-reasoning-replay-run header wins. */
  runId?: string;
  /** Seed for the generated tool arguments in follow mode (same seed, same answers). */
  seed?: number;
  /** Contested rules refuse instead of answering as their lenient side (docs/decisions/0044). */
  strict?: boolean;
  /** A request no mock could be handed (a protocol the mocks do not speak): `run` says why the agent failed. */
  onMiss?: (miss: ServeMiss) => void;
  /**
   * Each answer sent whole at once (an unpaced stream's text or a JSON body), by the seq of its log line: the judge
   * of an engine doing its own I/O reads the reasoning an answer issued from it (decision 0110).
   */
  onAnswer?: (seq: number, answer: unknown) => void;
  /** Faults of specs/faults.json to inject into follow-mode answers, each once (repeatable from `seed`). */
  faults?: readonly Fault[];
}

export interface RunningServe {
  url: string;
  port: number;
  /** `/deepseek/chat/completions`, ...: what a client points at, one base path per provider. */
  paths: string[];
  /** Request-body bytes held right now (tests wait on it instead of on time). */
  bytesInFlight(): number;
  /** With `faults`: how each injected fault went, and the ones never injected. */
  faults?: ServeFaults;
  close(): Promise<void>;
}

/**
 * The provider mocks over real HTTP on 127.0.0.1, for clients in any language. `/<provider>/<the
 * provider's own path>` is rewritten to the provider's real URL and handed to the very MSW handlers
 * the matrix uses, through msw's `getResponse` (no interception, no network); the answer is
 * streamed back as it is produced, so paced SSE stays paced. Every request is logged with the
 * mock's findings and the client that sent it.
 */
export function startServe(options: ServeOptions): Promise<RunningServe> {
  const byId = new Map(options.specs.map((s) => [s.id, s]));
  const policies = new Map<string, RoutePolicy>();
  const secrets: SecretValue[] = options.logBodies ? secretsFromEnv() : [];
  const seed = options.seed ?? 0;
  // What each mock answers is the provider side's (src/provider/handlers/answer-http-request.ts); serve carries bytes.
  const answers = new HttpAnswers({
    fixtures: options.fixtures,
    pace: options.pace ?? 0,
    seed,
    ...(options.strict ? { strict: true } : {}),
    ...(options.defaultScenario ? { defaultScenario: options.defaultScenario } : {}),
    ...(options.faults?.length ? { faults: options.faults } : {}),
  });
  const faults = options.faults?.length ? new ServeFaults(() => answers.faultsNotReached()) : undefined;
  const policyOf = (spec: ProviderSpec): RoutePolicy => {
    const known = policies.get(spec.id);
    if (known) return known;
    const policy = policyFor(options.table, spec);
    policies.set(spec.id, policy);
    return policy;
  };
  let seq = 0;
  const compaction = new ServeCompaction();
  let baseUrl = '';
  const routes = new Map<string, Route>();
  const bodies = new KnownBodies();
  const clock = new IsoClock();

  const knownScenarios = knownScenarioIds(options.fixtures.dir);
  const inFlight = new BytesInFlight(options.maxBytesInFlight);
  const soFar = new FindingsSoFar(options.specs);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Split by hand, not `new URL()`, and once per distinct URL: clients send a handful of them.
    const raw = req.url ?? '/';
    let route = routes.get(raw);
    if (!route) {
      route = routeOf(raw, byId);
      // The bound only guards against a path-spraying client.
      if (routes.size < 4096) routes.set(raw, route);
    }
    const url = route;
    const method = req.method ?? 'GET';
    if ((method === 'GET' || method === 'HEAD') && (url.pathname === '/' || url.pathname === '/index.json')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(
        method === 'HEAD'
          ? undefined
          : JSON.stringify(endpointIndex(baseUrl, options.specs, options.defaultScenario, options.runId), null, 2),
      );
    }
    // What a test runner asks after each test (python/): the flagged requests from its cursor on.
    if (method === 'GET' && url.pathname === FINDINGS_PATH) {
      const since = /^\?since=(\d{1,15})$/.exec(url.search)?.[1];
      if (url.search !== '' && since === undefined)
        return harness(res, 400, `${FINDINGS_PATH} takes ?since=N, N the "next" of an earlier answer (or nothing)`);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(soFar.since(Number(since ?? 0))));
    }
    const { id, rest, named } = route;
    const miss = (status: number, reason: ServeMiss['reason'], message: string) => {
      const seen: ServeMiss = { method, path: url.pathname, status, reason, message };
      soFar.addMiss(seen);
      options.onMiss?.(seen);
      harness(res, status, message);
    };
    if (!named) {
      return miss(
        404,
        'unknown-provider',
        `no provider "${id}" here; paths look like /<provider>/<its API path>, e.g. ${pathsOf(options.specs)[0] ?? '/deepseek/chat/completions'} (GET / lists them all)`,
      );
    }
    // Size, depth and scenario-id limits (request-limits.ts): refused before any mock, and logged.
    const read = await readBodyWithin(req, options.maxBodyBytes, inFlight);
    // The body's share of the bytes in flight is given back once its answer is done (or the client gone).
    if (read.held > 0) res.once('close', () => inFlight.give(read.held));
    const body = 'body' in read ? read.body : Buffer.alloc(0);
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    let refusal = 'refusal' in read ? read.refusal : scenarioRefusal(header(SCENARIO_HEADER), knownScenarios);
    const scenario = refusal ? null : (header(SCENARIO_HEADER) ?? options.defaultScenario ?? null);
    // Parsed, depth-checked and walked once per distinct body (known-bodies.ts).
    const facts = bodies.read(body);
    refusal ??= facts.depthRefusal;
    const parsed = refusal ? undefined : facts.json;
    // A body that is not JSON, sent as something else: a wire the mocks do not speak, not a malformed request.
    const contentType = header('content-type') ?? '';
    if (!refusal && parsed === undefined && method === 'POST' && contentType !== '' && !/json/i.test(contentType)) {
      return miss(
        415,
        'not-json',
        `the ${named.id} mock reads JSON request bodies; this one is ${contentType.split(';')[0]} and not JSON`,
      );
    }

    let candidates = route.candidates;
    if (!candidates) route.candidates = candidates = endpointCandidates(named, options.specs, `/${rest}`, url.search);
    const call = callFromHeader(header(CALL_HEADER)) ?? (refusal ? 0 : facts.assistantTurns);
    let spec = named;
    let status: number;
    let findings: Finding[];
    let tool: string | undefined;
    let pending: Buffer | undefined;

    let injected: InjectedFault | undefined;
    let issued: IssuedCarriers | undefined;
    let served: ServedAnswer | undefined;
    let cut = false;
    if (refusal) {
      status = refusal.status;
      findings = [];
      pending = Buffer.from(
        JSON.stringify({ error: { type: 'reasoning_replay_serve_error', message: refusal.message } }),
      );
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': String(pending.length),
        ...(refusal.retryAfterSeconds !== undefined ? { 'retry-after': String(refusal.retryAfterSeconds) } : {}),
        // A body left unread closes its connection; HTTP/2 has no connection header: a stream ends alone.
        ...(status === 413 && req.httpVersionMajor < 2 ? { connection: 'close' } : {}),
      });
    } else {
      const answer = await answers.answer(candidates, {
        method,
        path: url.pathname,
        headers: () => requestHeaders(req),
        body,
        ...(facts.text !== undefined ? { bodyText: facts.text } : {}),
        json: parsed,
        scenario,
        call,
      });
      if (!answer) {
        // Answered in the provider's own error shape, naming the path as the provider would see it; the log still
        // records the miss in serve's words.
        const providerPath = new URL(candidates[0]?.url ?? named.endpoint.baseUrl).pathname;
        const unmodelled = answers.unmodelled(named, method, providerPath);
        const seen: ServeMiss = {
          method,
          path: url.pathname,
          status: unmodelled.status,
          reason: 'no-such-path',
          message: `provider ${named.id} has no mock for ${method} /${rest}; it serves POST ${pathsOf([named]).join(', POST ')}`,
        };
        soFar.addMiss(seen);
        options.onMiss?.(seen);
        res.writeHead(unmodelled.status, unmodelled.headers);
        res.end(unmodelled.content.kind === 'json' ? unmodelled.content.bytes : '');
        return;
      }
      spec = answer.spec;
      status = answer.status;
      findings = answer.findings;
      tool = answer.tool;
      injected = answer.fault;
      issued = answer.issued;
      cut = answer.cut ?? false;
      const wire = streamWire(spec);
      // The mocks answer streams as SSE; on the wire each family's own framing (decision 0040).
      const headers =
        answer.streamed && wire.binary ? { ...answer.headers, 'content-type': wire.contentType } : answer.headers;
      const content = answer.content;
      // A stream cut short issued nothing whole; a recorded body piped through is not read (it is not the mock's).
      if (!cut && content.kind === 'events') served = { kind: 'events', events: content.events };
      if (content.kind === 'json') served = { kind: 'json', bytes: content.bytes };
      if (content.kind === 'events') {
        res.writeHead(status, headers);
        // Unpaced, the stream and its end go in one write at res.end() below (decision 0042).
        if ((options.pace ?? 0) <= 0) pending = streamBytes(content.events, wire);
        else await writeEvents(res, content.events, options.pace ?? 0, wire);
      } else if (content.kind === 'json') {
        // Head and body in one write, sent at res.end() below (after the log line).
        pending =
          typeof content.bytes === 'string'
            ? Buffer.from(content.bytes)
            : Buffer.from(content.bytes.buffer, content.bytes.byteOffset, content.bytes.byteLength);
        res.writeHead(status, withLength(headers, pending.length));
      } else {
        res.writeHead(status, headers);
        if (content.body) await pipe(answer.streamed ? reframe(content.body, wire) : content.body, res);
      }
    }

    const policy = policyOf(spec);
    const entry: ServeLogEntry = {
      seq: ++seq,
      time: clock.now(),
      provider: spec.id,
      route: policy.routeId,
      tier: policy.tier,
      family: policy.family,
      scenario: scenario ?? FOLLOW_SCENARIO,
      call,
      method,
      path: url.pathname,
      status,
      sentFields: refusal ? [] : facts.sentFields.slice(),
      findings,
      client: clientOf(header),
      runId: header(RUN_HEADER) ?? options.runId ?? null,
    };
    if (tool) entry.tool = tool;
    if (!refusal && facts.replays) entry.replays = true;
    if (options.logBodies) entry.body = redactBody(parsed ?? body.toString('utf8'), secrets);
    faults?.judgeEntry(entry, parsed, injected, issued);
    compaction.judgeEntry(entry, parsed, served);
    if (options.onAnswer && pending) options.onAnswer(entry.seq, answerOf(pending));
    const logged = options.log(entry);
    soFar.addEntry(entry);
    if (logged instanceof Promise) await logged;
    // Logged before the answer completes, so a client that reads the log after its response sees its line.
    if (cut) cutConnection(res, pending);
    else res.end(pending);
  };

  // Responses WebSocket mode: each turn is logged like a POST to the same path.
  const webSockets = responsesWebSocketUpgrade({
    specs: options.specs,
    answers,
    ...(options.defaultScenario ? { defaultScenario: options.defaultScenario } : {}),
    maxPayload: options.maxBodyBytes ?? MAX_BODY_BYTES,
    onTurn: ({ spec, path, header, scenario, turn }) => {
      const policy = policyOf(turn.answer?.spec ?? spec);
      const first = turn.messages[0] as { type?: unknown; status?: unknown } | undefined;
      const entry: ServeLogEntry = {
        seq: ++seq,
        time: clock.now(),
        provider: (turn.answer?.spec ?? spec).id,
        route: policy.routeId,
        tier: policy.tier,
        family: policy.family,
        scenario: scenario ?? FOLLOW_SCENARIO,
        call: assistantTurns(turn.body),
        method: 'WS',
        path,
        status:
          turn.answer?.status ?? (first?.type === 'error' && typeof first.status === 'number' ? first.status : 200),
        sentFields: wireCarrierKeys(turn.body),
        findings: turn.answer?.findings ?? [],
        client: clientOf(header),
        runId: header(RUN_HEADER) ?? options.runId ?? null,
      };
      if (turn.answer?.tool) entry.tool = turn.answer.tool;
      if (sendsBackReasoning(turn.body)) entry.replays = true;
      if (options.logBodies) entry.body = redactBody(turn.body, secrets);
      options.log(entry);
      soFar.addEntry(entry);
    },
  });

  const onRequest = (req: AnyRequest, res: AnyResponse) => {
    // HTTP/2's compatibility request and response have the HTTP/1 methods serve uses (headers, url,
    // a readable body, writeHead/write/end); the types only differ in overloads.
    handle(req as IncomingMessage, res as ServerResponse).catch((err: unknown) => {
      if (!res.headersSent)
        harness(
          res as ServerResponse,
          500,
          `serve failed on this request: ${err instanceof Error ? err.message : String(err)}`,
        );
      else if ('stream' in res) res.stream.close(http2Constants.NGHTTP2_INTERNAL_ERROR);
      else res.destroy();
    });
  };
  // Loopback only: the mocks are for this machine's agents, never a network service. HTTP/1.1 and
  // cleartext HTTP/2 on the same port: the AWS SDK's Bedrock client speaks HTTP/2 by default.
  return listenHttp1AndH2c(onRequest, {
    port: options.port,
    host: '127.0.0.1',
    keepAliveTimeout: 30_000,
    headerTimeoutMs: options.headerTimeoutMs ?? DEFAULT_SERVE_HEADER_TIMEOUT_MS,
    onUpgrade: webSockets.onUpgrade,
  }).then((server) => {
    baseUrl = `http://127.0.0.1:${server.port}`;
    return {
      url: baseUrl,
      port: server.port,
      paths: pathsOf(options.specs),
      bytesInFlight: () => inFlight.total,
      ...(faults ? { faults } : {}),
      close: () => {
        webSockets.close();
        return server.close();
      },
    };
  });
}

/** `GET` it for the findings so far as JSON (findings-so-far.ts); not a provider id, as ids hold no dot. */
/** An answer's bytes as the judge reads them: the JSON body parsed, else the text (a stream's events). */
function answerOf(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const FINDINGS_PATH = '/findings.json';

export function pathsOf(specs: readonly ProviderSpec[]): string[] {
  return specs.flatMap((s) => {
    const paths = [
      s.endpoint.path,
      ...(s.endpoint.streamPath && s.endpoint.streamPath !== s.endpoint.path ? [s.endpoint.streamPath] : []),
    ];
    return paths.map((p) => `/${s.id}${p}`);
  });
}

async function pipe(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    res.write(value);
  }
}

/** The request's headers for the mocks: connection headers and HTTP/2's pseudo-headers (the request line) left out. */
function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || CONNECTION_HEADERS.has(name) || name.startsWith(':')) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** The connection dropped after what was sent: a stream cut inside its answer, as a network fault cuts it. */
function cutConnection(res: ServerResponse, bytes: Buffer | undefined): void {
  const drop = () => {
    // HTTP/2 resets only this stream; HTTP/1.1 closes the socket, so a chunked body never gets its last chunk.
    if ('stream' in res)
      (res as unknown as { stream: { close(code: number): void } }).stream.close(http2Constants.NGHTTP2_INTERNAL_ERROR);
    else res.destroy();
  };
  if (bytes && bytes.length > 0) res.write(bytes, drop);
  else drop();
}

function harness(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type: 'reasoning_replay_serve_error', message } }));
}

/** The runner's call header, when it is a number. */
function callFromHeader(header: string | undefined): number | undefined {
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/** A request URL as serve routes on it: split once per distinct URL (clients send a handful). */
interface Route {
  pathname: string;
  search: string;
  /** The provider id, the path's first segment. */
  id: string;
  /** The rest of the path after the provider id, without its leading slash. */
  rest: string;
  named: ProviderSpec | undefined;
  /** The mocks the path may go to, resolved on the first request that reaches them. */
  candidates?: EndpointCandidate[];
}

function routeOf(raw: string, byId: ReadonlyMap<string, ProviderSpec>): Route {
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  const [, id = '', ...rest] = pathname.split('/');
  return { pathname, search: q < 0 ? '' : raw.slice(q), id, rest: rest.join('/'), named: byId.get(id) };
}

/** Headers with a content length, made once per headers object and length (a kept answer repeats both). */
const withLengths = new WeakMap<Record<string, string>, Map<number, Record<string, string>>>();
function withLength(headers: Record<string, string>, length: number): Record<string, string> {
  let byLength = withLengths.get(headers);
  if (!byLength) withLengths.set(headers, (byLength = new Map()));
  let made = byLength.get(length);
  if (!made) {
    made = { ...headers, 'content-length': String(length) };
    if (byLength.size < 64) byLength.set(length, made);
  }
  return made;
}
