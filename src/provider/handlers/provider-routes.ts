import { mockRoute, type MockRoute } from './mock-route.js';
import { jsonMockAnswer, type MockAnswer, type MockExchange } from './mock-exchange.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { assistantTurns } from './assistant-turns.js';
import { servesModel, specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection, unfilledPlaceholders } from './fill-rejection.js';
import { CALL_HEADER, SCENARIO_HEADER, type Finding } from '../../shared/findings/finding.js';
import { findingsHeader } from '../../shared/findings/findings-record.js';
import type { FixtureStore } from '../fixtures/fixture-store.js';
import { isUpstreamFinding, rejectionSpec } from '../rules/gateway-upstream.js';
import { judgeGatewayResponses } from '../rules/gateway-upstream-responses.js';
import { judgeAnthropicMessages } from '../families/anthropic-messages/request-rules.js';
import { judgeRequest } from './judge-request.js';
import type { RequestJudge } from '../rules/request-judge.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { atPointer } from '../rules/message-echo-judge.js';
import { settleFindings, type AnswerPolicy } from './answer-policy.js';
import { judgeModelRefusals } from '../rules/model-refusals.js';
import { AS_IS_HEADER, aroundGenerationRoutes } from './around-generation.js';
import { compactAnswer, compactInput } from '../families/openai-responses/compact-answer.js';
import { storedResponse } from '../answers/stored-responses.js';

export interface MockOptions extends AnswerPolicy {
  /** Multiplier on recorded stream timing: 1 replays real pacing, 0 sends events back to back. */
  pace?: number;
  /** Scenario to answer from when a request carries no scenario header (black-box clients). */
  defaultScenario?: string;
}

function json(status: number, body: unknown, headers: Record<string, string>): MockAnswer {
  return typeof body === 'string'
    ? { status, headers: { 'content-type': 'text/plain', ...headers }, body }
    : jsonMockAnswer(body, { status, headers });
}

/** A harness error (not a provider answer): a 599 the runner reports as such, never as the provider's word. */
function harnessError(message: string, findings: Finding[] = []): MockAnswer {
  return jsonMockAnswer(
    { error: { type: 'reasoning_replay_mock_error', message } },
    { status: 599, headers: findingsHeader(findings) },
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `https://h/v1beta/models/{model}:generateContent?alt=sse` -> a RegExp on the URL without its
 * query. `{model}` matches the given model (raw or URL-encoded) or, when none is given, any model
 * id (captured as group 1): a mock serves every model its provider serves, and picks the rule set
 * by the model (specs/providers `models`).
 */
export function endpointPattern(baseUrl: string, path: string, model?: string): RegExp {
  const [before, after] = (baseUrl.replace(/\/$/, '') + path.replace(/\?.*$/, '')).split('{model}') as [
    string,
    string | undefined,
  ];
  const modelPattern =
    model === undefined ? '([^/?]+?)' : `(${escapeRegExp(model)}|${escapeRegExp(encodeURIComponent(model))})`;
  // `*` in an alias is one path segment of any value (a Vertex project or location).
  const literal = (text: string) => escapeRegExp(text).replace(/\\\*/g, '[^/]+');
  const body = after === undefined ? literal(before) : literal(before) + modelPattern + literal(after);
  return new RegExp(`^${body}(?:\\?.*)?$`);
}

/**
 * Every path a spec answers on, with whether it is the streaming one: its own, then the SDK aliases (relative to the
 * base URL's origin).
 */
export function specPaths(spec: ProviderSpec): Array<{ baseUrl: string; path: string; stream: boolean }> {
  const origin = new URL(spec.endpoint.baseUrl).origin;
  const out = [{ baseUrl: spec.endpoint.baseUrl, path: spec.endpoint.path, stream: false }];
  if (spec.endpoint.streamPath && spec.endpoint.streamPath !== spec.endpoint.path)
    out.push({ baseUrl: spec.endpoint.baseUrl, path: spec.endpoint.streamPath, stream: true });
  for (const alias of spec.endpoint.aliases ?? [])
    out.push({ baseUrl: origin, path: alias, stream: /stream/i.test(alias) });
  return out;
}

/** Which exchange answers this request: the runner says so in headers; otherwise count assistant turns. */
function callIndex(request: MockExchange, body: unknown): number {
  const header = request.header(CALL_HEADER);
  if (header !== null && /^\d+$/.test(header)) return Number(header);
  return assistantTurns(body);
}

/** The provider's answer to the first finding: its own rejection, or its upstream's inside the gateway envelope. */
function rejectionAnswer(
  spec: ProviderSpec,
  finding: Finding,
  model: string,
): { status: number; headers: Record<string, string>; body: unknown } | string {
  const rules = rejectionSpec(spec, finding, model);
  const rejection = rules?.rejections[finding.rejection];
  if (!rules || !rejection) return `spec ${rules?.id ?? spec.id} has no rejection "${finding.rejection}"`;
  const own = fillRejection(rejection, finding.params);
  if (!isUpstreamFinding(finding)) return own;
  const wrapperId = finding.via.gatewayRejection ?? spec.request.upstreamEnvelope;
  const wrapper = wrapperId === undefined ? undefined : spec.rejections[wrapperId];
  if (!wrapper)
    return `spec ${spec.id} names upstream ${finding.via.provider} but has no envelope rejection for its errors`;
  // Google's own error bodies arrive pretty-printed inside OpenRouter's message; other upstreams' compact (issue
  // reports of each).
  const raw = finding.via.gatewayRejection ? `${JSON.stringify(own.body, null, 2)}\n` : JSON.stringify(own.body);
  const wrapped = fillRejection(wrapper, { ...finding.params, raw, provider_name: finding.via.providerName });
  return { ...wrapped, status: own.status };
}

/**
 * Providers that list every offending field in one answer (spec request.joinFindings): the text at
 * the pointer of each same-rejection finding's body, joined, in the first answer's body.
 */
function joined(
  spec: ProviderSpec,
  findings: Finding[],
  answer: ReturnType<typeof rejectionAnswer>,
  model: string,
): ReturnType<typeof rejectionAnswer> {
  const join = spec.request.joinFindings;
  if (!join || typeof answer === 'string' || findings.length < 2) return answer;
  const same = findings.filter((f) => f.rejection === findings[0]!.rejection && !isUpstreamFinding(f) && !f.lenient);
  const texts = same
    .map((f) => atPointer(fillRejection(spec.rejections[f.rejection]!, { model, ...f.params }).body, join.pointer))
    .filter((t): t is string => typeof t === 'string');
  if (texts.length < 2 || !isPlainObject(answer.body)) return answer;
  const body = structuredClone(answer.body) as Record<string, unknown>;
  const keys = join.pointer.split('/').slice(1);
  let at: Record<string, unknown> = body;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys.at(-1)!] = texts.join(join.separator);
  return { ...answer, body };
}

/** The model a request is for: from the URL where the path names it, else the body. */
function requestModel(match: RegExpExecArray | null, body: unknown, fallback: string): string {
  const fromUrl = match?.[1];
  if (fromUrl !== undefined) {
    try {
      return decodeURIComponent(fromUrl);
    } catch {
      return fromUrl;
    }
  }
  return isPlainObject(body) && typeof body.model === 'string' ? body.model : fallback;
}

/** The request's JSON (`body`), or the provider's answer to a body that is not JSON (`refused`). */
function jsonBody(request: MockExchange, spec: ProviderSpec): { body: unknown } | { refused: MockAnswer } {
  try {
    return { body: JSON.parse(request.text) as unknown };
  } catch {
    const invalid = spec.request.invalidRejection && spec.rejections[spec.request.invalidRejection];
    if (invalid) {
      const answer = fillRejection(invalid, { path: '', field: '' });
      const finding: Finding = {
        rule: 'provider-accepts',
        rejection: spec.request.invalidRejection!,
        params: {},
        detail: 'the body is not JSON',
      };
      return { refused: json(answer.status, answer.body, { ...answer.headers, ...findingsHeader([finding]) }) };
    }
    return {
      refused: json(
        400,
        { error: { message: 'request body is not valid JSON (reasoning-replay mock; provider wording unknown)' } },
        findingsHeader([]),
      ),
    };
  }
}

/**
 * What a route on a model's path reads first: the body's JSON, the model the request is for (the path's, else the
 * body's) and that model's rule set; the answer to a body that is not JSON (`refused`); or undefined when the spec does
 * not serve the model, so the next route may.
 */
function readForModel(
  request: MockExchange,
  spec: ProviderSpec,
  pattern: RegExp,
): { refused: MockAnswer } | { body: unknown; model: string; rules: ProviderSpec } | undefined {
  const read = jsonBody(request, spec);
  if ('refused' in read) return read;
  const model = requestModel(pattern.exec(request.url.replace(/\?.*$/, '')), read.body, spec.target.model);
  return servesModel(spec, model) ? { body: read.body, model, rules: specForModel(spec, model) } : undefined;
}

/**
 * The provider's answer to a request it refuses: the first finding's rejection, filled (joined where the provider
 * joins).
 */
function refusal(spec: ProviderSpec, rules: ProviderSpec, findings: Finding[], model: string): MockAnswer {
  const headers = findingsHeader(findings);
  const first = { ...findings[0]!, params: { model, ...findings[0]!.params } };
  const answer = joined(rules, findings, rejectionAnswer(rules, first, model), model);
  if (typeof answer === 'string') return harnessError(answer, findings);
  const unfilled = unfilledPlaceholders(answer.body);
  if (unfilled.length > 0)
    return harnessError(
      `spec ${spec.id} rejection "${first.rejection}" left {${unfilled.join('}, {')}} unfilled: the rule that found "${first.detail ?? first.rejection}" does not supply it`,
      findings,
    );
  return json(answer.status, answer.body, { ...answer.headers, ...headers });
}

/**
 * Routes for the paths where a provider serves another wire family (spec endpoint.wireAliases:
 * Nous Portal's /v1/responses beside its chat completions). The request is judged by that
 * family's gateway judge; an accepted one has no fixture in that family's shape to be answered
 * from (the provider's fixtures are its own family's), which the harness says (599, no findings:
 * the provider let it through).
 */
function wireAliasRoutes(spec: ProviderSpec, policy: AnswerPolicy): MockRoute[] {
  const origin = new URL(spec.endpoint.baseUrl).origin;
  return (spec.endpoint.wireAliases ?? []).map((alias) => {
    const judge = WIRE_ALIAS_JUDGES[alias.family];
    const pattern = endpointPattern(origin, alias.path);
    return mockRoute.post(pattern, (request) => {
      // Bedrock's InvokeModel names the model in its path, as the spec's own path does.
      const read = readForModel(request, spec, pattern);
      if (!read) return undefined;
      if ('refused' in read) return read.refused;
      const { body, model, rules } = read;
      if (!judge)
        return harnessError(`spec ${spec.id} serves ${alias.path} as ${alias.family}, which no gateway judge reads`);
      const settled = settleFindings(judge(rules, body), policy);
      if (settled.refusing.length > 0) return refusal(spec, rules, settled.findings, model);
      return harnessError(
        `${spec.id} accepted this ${alias.family} request on ${alias.path}, but its fixtures are ${spec.family} answers; none is rendered in ${alias.family} shape`,
        settled.findings,
      );
    });
  });
}

/**
 * Judges of a provider's other-family paths, by family: a chat gateway's Responses path, and Bedrock's InvokeModel
 * taking Claude's Messages body beside Converse (the Messages rules whose rejections the spec defines).
 */
const WIRE_ALIAS_JUDGES: Partial<Record<FamilyId, RequestJudge>> = {
  'openai-responses': judgeGatewayResponses,
  'anthropic-messages': judgeAnthropicMessages,
};

/**
 * The routes of one provider's mock, generated from its spec: judge the request as the provider would
 * (with the rule set of the model it names), answer with the provider's own error when it breaks a
 * rule, else answer from the fixture. A model the spec does not serve falls through to the next
 * route (another spec on the same URL), and to a 404 when none claims it.
 */
export function providerRoutes(spec: ProviderSpec, fixtures: FixtureStore, options: MockOptions = {}): MockRoute[] {
  const own = specPaths(spec).map(({ baseUrl, path, stream: streamPath }) => {
    const pattern = endpointPattern(baseUrl, path);
    return mockRoute.post(pattern, (request) => {
      const read = readForModel(request, spec, pattern);
      if (!read) return undefined;
      if ('refused' in read) return read.refused;
      const { body, model, rules } = read;
      const wantsStream = streamPath || (isPlainObject(body) && body.stream === true);
      // A model the provider does not serve (retired, or without what the body asks for: spec models.refuses) words
      // the answer before anything the body itself breaks. A contested finding answers as its lenient side unless the
      // policy is strict (answer-policy.ts).
      const settled = settleFindings(
        [...judgeModelRefusals(spec, model, body, wantsStream), ...judgeRequest(rules, body)],
        options,
      );
      const headers = findingsHeader(settled.findings);
      if (settled.refusing.length > 0) return refusal(spec, rules, settled.findings, model);
      const scenario = request.header(SCENARIO_HEADER) ?? options.defaultScenario;
      if (!scenario) return harnessError(`no ${SCENARIO_HEADER} header and no default scenario for ${spec.id}`);
      const loaded = fixtures.get(spec.id, scenario);
      if (!loaded) return harnessError(`no fixture fixtures/providers/${spec.id}/${scenario}.json`);
      const call = callIndex(request, body);
      const exchange = loaded.fixture.exchanges[Math.min(call, loaded.fixture.exchanges.length - 1)]!;
      const responseHeaders = { ...(exchange.response.headers ?? {}), ...headers };
      if (wantsStream) {
        if (!exchange.response.stream)
          return harnessError(`${loaded.path} exchange ${call} has no stream; record it with --stream`);
        return {
          status: exchange.response.status,
          headers: { ...responseHeaders, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
          body: { events: exchange.response.stream.events, pace: options.pace ?? 0 },
        };
      }
      if (exchange.response.body === undefined)
        return harnessError(`${loaded.path} exchange ${call} has no JSON body; it was recorded as a stream`);
      return json(exchange.response.status, exchange.response.body, {
        ...responseHeaders,
        'content-type': 'application/json',
      });
    });
  });
  return [
    ...unservedRoutes(spec),
    ...own,
    ...compactRoutes(spec, options),
    ...wireAliasRoutes(spec, options),
    ...aroundGenerationRoutes(spec),
  ];
}

/**
 * POST /responses/compact (spec endpoint.compact): the conversation it names is judged as a /responses request with
 * that input would be (a compaction item or reasoning item it carries must be the one issued), then answered with one
 * compaction item the mock signs (compact-answer.ts). The answer is final: follow mode leaves it as it is.
 */
function compactRoutes(spec: ProviderSpec, policy: AnswerPolicy): MockRoute[] {
  const endpoint = spec.endpoint.compact;
  if (!endpoint) return [];
  return [
    mockRoute.post(endpointPattern(spec.endpoint.baseUrl, endpoint.path), (request) => {
      const read = jsonBody(request, spec);
      if ('refused' in read) return read.refused;
      const body = read.body;
      const model = requestModel(null, body, spec.target.model);
      // Unlike /responses, compact takes no default model: openai-node's ResponseCompactParams has `model` required.
      // The API's wording for its absence here is not public, so the spec's malformed-body rejection answers.
      const invalid = spec.request.invalidRejection;
      if (invalid && !(isPlainObject(body) && typeof body.model === 'string')) {
        const finding: Finding = {
          rule: 'provider-accepts',
          rejection: invalid,
          params: { path: '/model', field: 'model' },
          detail: `${spec.label} compacts only with a model named`,
        };
        return refusal(spec, spec, [finding], model);
      }
      if (!servesModel(spec, model)) return undefined;
      const rules = specForModel(spec, model);
      const asked = isPlainObject(body) ? body : {};
      const previous = typeof asked.previous_response_id === 'string' ? asked.previous_response_id : undefined;
      const stored = previous === undefined ? undefined : storedResponse(spec, previous);
      const before = stored ? [...stored.input, ...((stored.response.output as unknown[] | undefined) ?? [])] : [];
      const input = compactInput(asked, before);
      // What a /responses request carrying this conversation would be told: the same rules judge it here.
      const probe = { model, input, ...(asked.instructions !== undefined ? { instructions: asked.instructions } : {}) };
      const settled = settleFindings(judgeRequest(rules, probe), policy);
      if (settled.refusing.length > 0) return refusal(spec, rules, settled.findings, model);
      const answer = compactAnswer(spec, endpoint, input, asked.instructions, Math.floor(Date.now() / 1000));
      return json(200, answer, {
        ...findingsHeader(settled.findings),
        [AS_IS_HEADER]: '1',
        'content-type': 'application/json',
      });
    }),
  ];
}

/**
 * Paths on the provider's host that refuse every request (spec endpoint.unserved: Foundry's Claude resource answers
 * 404 on the OpenAI-style /models/chat/completions), before any other route can claim them.
 */
function unservedRoutes(spec: ProviderSpec): MockRoute[] {
  const origin = new URL(spec.endpoint.baseUrl).origin;
  return (spec.endpoint.unserved ?? []).map((entry) =>
    mockRoute.post(endpointPattern(origin, entry.path), (request) => {
      const read = jsonBody(request, spec);
      if ('refused' in read) return read.refused;
      const body = read.body;
      const model = requestModel(null, body, spec.target.model);
      const finding: Finding = {
        rule: 'provider-accepts',
        rejection: entry.rejection,
        params: { model },
        detail: `${spec.label} does not serve ${entry.path}`,
      };
      return refusal(spec, spec, [finding], model);
    }),
  );
}
