import { http, HttpResponse, type HttpHandler } from 'msw';
import type { ProviderSpec } from '../providers/provider-spec.js';
import { isPlainObject } from '../util/deep-merge.js';
import { sseBody } from './answer-stream.js';
import { fillRejection } from './fill-rejection.js';
import { CALL_HEADER, FINDINGS_HEADER, SCENARIO_HEADER, type Finding } from './finding.js';
import type { FixtureStore } from './fixture-store.js';
import { judgeRequest } from './rules/index.js';

export interface MockOptions {
  /** Multiplier on recorded stream timing: 1 replays real pacing, 0 sends events back to back. */
  pace?: number;
  /** Scenario to answer from when a request carries no scenario header (black-box clients). */
  defaultScenario?: string;
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return typeof body === 'string'
    ? new HttpResponse(body, { status, headers: { 'content-type': 'text/plain', ...headers } })
    : HttpResponse.json(body as Record<string, unknown>, { status, headers });
}

/** A harness error (not a provider answer): a 599 the runner reports as such, never as the provider's word. */
function harnessError(message: string, findings: Finding[] = []): Response {
  return HttpResponse.json({ error: { type: 'reasoning_replay_mock_error', message } }, { status: 599, headers: { [FINDINGS_HEADER]: JSON.stringify(findings) } });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `https://h/v1beta/models/{model}:generateContent?alt=sse` -> a RegExp on the URL without its
 * query, with `{model}` this spec's own model (raw or URL-encoded): specs that share a base URL and
 * path (Bedrock models in one region) must not answer for each other.
 */
export function endpointPattern(baseUrl: string, path: string, model: string): RegExp {
  const [before, after] = (baseUrl.replace(/\/$/, '') + path.replace(/\?.*$/, '')).split('{model}') as [string, string | undefined];
  const modelPattern = `(?:${escapeRegExp(model)}|${escapeRegExp(encodeURIComponent(model))})`;
  const body = after === undefined ? escapeRegExp(before) : escapeRegExp(before) + modelPattern + escapeRegExp(after);
  return new RegExp(`^${body}(\\?.*)?$`);
}

/** Which exchange answers this request: the runner says so in headers; otherwise count assistant turns. */
function callIndex(request: Request, body: unknown): number {
  const header = request.headers.get(CALL_HEADER);
  if (header !== null && /^\d+$/.test(header)) return Number(header);
  if (!isPlainObject(body)) return 0;
  const list = (body.messages ?? body.contents ?? body.input) as unknown;
  if (!Array.isArray(list)) return 0;
  return list.filter((m) => isPlainObject(m) && (m.role === 'assistant' || m.role === 'model' || m.type === 'function_call')).length;
}

/**
 * MSW handlers for one provider, generated from its spec: judge the request as the provider would,
 * answer with the provider's own error when it breaks a rule, else answer from the fixture.
 */
export function providerHandlers(spec: ProviderSpec, fixtures: FixtureStore, options: MockOptions = {}): HttpHandler[] {
  const paths: Array<[string, boolean]> = [[spec.endpoint.path, false]];
  if (spec.endpoint.streamPath && spec.endpoint.streamPath !== spec.endpoint.path) paths.push([spec.endpoint.streamPath, true]);
  return paths.map(([path, streamPath]) =>
    http.post(endpointPattern(spec.endpoint.baseUrl, path, spec.target.model), async ({ request }) => {
      let body: unknown;
      try {
        body = await request.clone().json();
      } catch {
        return json(400, { error: { message: 'request body is not valid JSON (reasoning-replay mock; provider wording unknown)' } }, {});
      }
      const findings = judgeRequest(spec, body);
      const headers = { [FINDINGS_HEADER]: JSON.stringify(findings) };
      const first = findings[0];
      if (first) {
        const rejection = spec.rejections[first.rejection];
        if (!rejection) return harnessError(`spec ${spec.id} has no rejection "${first.rejection}"`, findings);
        const answer = fillRejection(rejection, first.params);
        return json(answer.status, answer.body, { ...answer.headers, ...headers });
      }
      const scenario = request.headers.get(SCENARIO_HEADER) ?? options.defaultScenario;
      if (!scenario) return harnessError(`no ${SCENARIO_HEADER} header and no default scenario for ${spec.id}`);
      const loaded = fixtures.get(spec.id, scenario);
      if (!loaded) return harnessError(`no fixture fixtures/providers/${spec.id}/${scenario}.json`);
      const call = callIndex(request, body);
      const exchange = loaded.fixture.exchanges[Math.min(call, loaded.fixture.exchanges.length - 1)]!;
      const wantsStream = streamPath || (isPlainObject(body) && body.stream === true);
      const responseHeaders = { ...(exchange.response.headers ?? {}), ...headers };
      if (wantsStream) {
        if (!exchange.response.stream) return harnessError(`${loaded.path} exchange ${call} has no stream; record it with --stream`);
        return new HttpResponse(sseBody(exchange.response.stream.events, options.pace ?? 0), {
          status: exchange.response.status,
          headers: { ...responseHeaders, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        });
      }
      if (exchange.response.body === undefined) return harnessError(`${loaded.path} exchange ${call} has no JSON body; it was recorded as a stream`);
      return json(exchange.response.status, exchange.response.body, { ...responseHeaders, 'content-type': 'application/json' });
    }),
  );
}
