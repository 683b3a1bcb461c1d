import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type HttpHandler } from 'msw';
import { policyFor } from '../routes/policy-for.js';
import { wireCarrierKeys } from '../conformance/wire-carriers.js';
import { CALL_HEADER, FINDINGS_HEADER, SCENARIO_HEADER, type Finding } from '../mocks/finding.js';
import type { FixtureStore } from '../mocks/fixture-store.js';
import { providerHandlers } from '../mocks/provider-handlers.js';
import type { ProviderSpec } from '../providers/provider-spec.js';
import type { RouteTable } from '../routes/route-table.js';
import { isPlainObject } from '../util/deep-merge.js';
import type { ServeLogEntry } from './serve-log.js';

export interface ServeOptions {
  /** 0 picks a free port. */
  port: number;
  specs: ProviderSpec[];
  fixtures: FixtureStore;
  table: RouteTable;
  /** Scenario whose fixture answers requests that carry no x-reasoning-replay-scenario header. */
  defaultScenario?: string;
  pace?: number;
  log: (entry: ServeLogEntry) => void;
}

export interface RunningServe {
  url: string;
  port: number;
  /** `/deepseek/chat/completions`, ...: what a client points at, one base path per provider. */
  paths: string[];
  close(): Promise<void>;
}

/** Hop-by-hop and framing headers belong to each connection, not to the request or answer they carry. */
const CONNECTION_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade']);

/**
 * The provider mocks over real HTTP on 127.0.0.1, for clients in any language. `/<provider>/<the
 * provider's own path>` is rewritten to the provider's real URL and handed to the very MSW handlers
 * the matrix uses, through msw's `getResponse` (no interception, no network); the answer is
 * streamed back as it is produced, so paced SSE stays paced. Every request is logged with the
 * mock's findings.
 */
export function startServe(options: ServeOptions): Promise<RunningServe> {
  const byId = new Map(options.specs.map((s) => [s.id, s]));
  const handlers = new Map<string, HttpHandler[]>();
  const handlersFor = (spec: ProviderSpec): HttpHandler[] => {
    let list = handlers.get(spec.id);
    if (!list) {
      const mockOptions = { pace: options.pace ?? 0, ...(options.defaultScenario ? { defaultScenario: options.defaultScenario } : {}) };
      handlers.set(spec.id, (list = providerHandlers(spec, options.fixtures, mockOptions)));
    }
    return list;
  };
  let seq = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [, id = '', ...rest] = url.pathname.split('/');
    const spec = byId.get(id);
    if (!spec) {
      return harness(res, 404, `no provider "${id}" here; paths look like /<provider>/<its API path>, e.g. ${pathsOf(options.specs)[0] ?? '/deepseek/chat/completions'}`);
    }
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || CONNECTION_HEADERS.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const method = req.method ?? 'GET';
    const target = `${spec.endpoint.baseUrl.replace(/\/$/, '')}/${rest.join('/')}${url.search}`;
    const request = new Request(target, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body }) });
    const response = await getResponse(handlersFor(spec), request);
    if (!response) {
      return harness(res, 404, `provider ${spec.id} has no mock for ${method} /${rest.join('/')}; it serves POST ${pathsOf([spec]).join(', POST ')}`);
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!CONNECTION_HEADERS.has(name)) out[name] = value;
    });
    res.writeHead(response.status, out);
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
    }

    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const policy = policyFor(options.table, spec);
    options.log({
      seq: ++seq,
      time: new Date().toISOString(),
      provider: spec.id,
      route: policy.routeId,
      tier: policy.tier,
      family: policy.family,
      scenario: headers.get(SCENARIO_HEADER) ?? options.defaultScenario ?? null,
      call: callNumber(headers.get(CALL_HEADER), parsed),
      method,
      path: url.pathname,
      status: response.status,
      sentFields: wireCarrierKeys(parsed),
      findings: parseFindings(response.headers.get(FINDINGS_HEADER)),
    });
    // Logged before the answer completes, so a client that reads the log after its response sees its line.
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) harness(res, 500, `serve failed on this request: ${err instanceof Error ? err.message : String(err)}`);
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the mocks are for this machine's agents, never a network service.
    server.listen(options.port, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        paths: pathsOf(options.specs),
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

function pathsOf(specs: ProviderSpec[]): string[] {
  return specs.flatMap((s) => {
    const paths = [s.endpoint.path, ...(s.endpoint.streamPath && s.endpoint.streamPath !== s.endpoint.path ? [s.endpoint.streamPath] : [])];
    return paths.map((p) => `/${s.id}${p}`);
  });
}

function harness(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type: 'reasoning_replay_serve_error', message } }));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The runner's call header when present; otherwise how many assistant turns the client sent (as the mocks count). */
function callNumber(header: string | null, body: unknown): number {
  if (header !== null && /^\d+$/.test(header)) return Number(header);
  if (!isPlainObject(body)) return 0;
  const list = (body.messages ?? body.contents ?? body.input) as unknown;
  if (!Array.isArray(list)) return 0;
  return list.filter((m) => isPlainObject(m) && (m.role === 'assistant' || m.role === 'model' || m.type === 'function_call')).length;
}

function parseFindings(header: string | null): Finding[] {
  if (!header) return [];
  try {
    const value = JSON.parse(header) as unknown;
    return Array.isArray(value) ? (value as Finding[]) : [];
  } catch {
    return [];
  }
}
