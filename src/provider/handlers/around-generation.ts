import { mockRoute, type MockRoute } from './mock-route.js';
import { jsonMockAnswer, type MockExchange } from './mock-exchange.js';
import type { CatalogueEntry, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { catalogueEntry, catalogueModels } from '../../shared/provider-specs/model-catalogue.js';
import { findingsHeader } from '../../shared/findings/findings-record.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { forgetResponse, storedResponse } from '../answers/stored-responses.js';

/**
 * Set on an answer that is final as the provider side wrote it (a models list, a token count, an unmodelled path):
 * follow mode, which replaces a generation answer with one rendered for the client, leaves it alone.
 */
export const AS_IS_HEADER = 'x-reasoning-replay-as-is';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A URL pattern: `prefix` exactly, then optionally `/<id>` (an id may hold slashes: Groq's openai/gpt-oss-120b). */
const listOrOne = (prefix: string) => new RegExp(`^${escapeRegExp(prefix)}(?:/(.+?))?/?(?:\\?.*)?$`);

const answer = (body: unknown, status = 200) =>
  jsonMockAnswer(body, {
    status,
    headers: { ...findingsHeader([]), [AS_IS_HEADER]: '1' },
  });

const epochSeconds = (date: string | undefined) => (date ? Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000) : 0);
const isoTime = (date: string | undefined) => `${date ?? '1970-01-01'}T00:00:00Z`;

/** The catalogue entry a retrieve names, or a bare one for a model the catalogue does not name (it is still served). */
function entryOrBare(spec: ProviderSpec, id: string): CatalogueEntry | { id: string } {
  return catalogueEntry(spec, id) ?? { id };
}

/** OpenAI's model object (GET /v1/models): id, object, created, owned_by. */
function openAIModel(spec: ProviderSpec, entry: CatalogueEntry | { id: string }) {
  return {
    id: entry.id,
    object: 'model',
    created: epochSeconds('released' in entry ? entry.released : undefined),
    owned_by: spec.target.provider,
  };
}

/** Anthropic's model object (GET /v1/models): type, id, display_name, created_at, and the token limits it reports. */
function anthropicModel(entry: CatalogueEntry | { id: string }) {
  const full = 'reasoning' in entry ? entry : undefined;
  return {
    type: 'model',
    id: entry.id,
    display_name: full?.label ?? entry.id,
    created_at: isoTime(full?.released),
    ...(full?.limits.context !== undefined ? { max_input_tokens: full.limits.context } : {}),
    ...(full?.limits.maxOutput !== undefined ? { max_tokens: full.limits.maxOutput } : {}),
  };
}

/** Gemini's Model resource (models.list / models.get). */
function geminiModel(entry: CatalogueEntry | { id: string }) {
  const full = 'reasoning' in entry ? entry : undefined;
  return {
    name: `models/${entry.id}`,
    displayName: full?.label ?? entry.id,
    ...(full?.limits.context !== undefined ? { inputTokenLimit: full.limits.context } : {}),
    ...(full?.limits.maxOutput !== undefined ? { outputTokenLimit: full.limits.maxOutput } : {}),
    supportedGenerationMethods: ['generateContent', 'countTokens'],
    ...(full ? { thinking: full.reasoning !== 'never' } : {}),
  };
}

/** Where a spec's models endpoint lives, by family; undefined where the family has none on this host (Bedrock). */
export function modelsPath(spec: ProviderSpec): string | undefined {
  const base = spec.endpoint.baseUrl.replace(/\/$/, '');
  const { path } = spec.endpoint;
  switch (spec.family) {
    case 'openai-chat':
    case 'openai-responses':
    case 'copilot':
      return `${base}/models`;
    case 'anthropic-messages':
      return path.endsWith('/messages') ? `${base}${path.replace(/\/messages$/, '/models')}` : undefined;
    case 'gemini':
      return path.includes('/{model}') ? `${base}${path.split('/{model}')[0]}` : undefined;
    default:
      return undefined;
  }
}

/** A rough token count, as a count endpoint answers: about four characters a token over what the request sends. */
export function estimateTokens(parts: unknown[]): number {
  const text = parts
    .filter((p) => p !== undefined)
    .map((p) => JSON.stringify(p))
    .join('');
  return Math.max(1, Math.ceil(text.length / 4));
}

function jsonOrEmpty(request: MockExchange): Record<string, unknown> {
  try {
    const body = JSON.parse(request.text) as unknown;
    return isPlainObject(body) ? body : {};
  } catch {
    return {};
  }
}

/**
 * The endpoints agents call around generation, answered from the spec: the models list and retrieve (from the model
 * catalogue; a model it does not name is still retrieved, so tomorrow's model keeps working), and token counting
 * (Anthropic's count_tokens, Gemini's countTokens).
 */
export function aroundGenerationRoutes(spec: ProviderSpec): MockRoute[] {
  const routes: MockRoute[] = [];
  const models = modelsPath(spec);
  if (models) {
    routes.push(
      mockRoute.get(listOrOne(models), (request) => {
        const match = listOrOne(models).exec(request.url);
        const raw = match?.[1];
        const id = raw === undefined ? undefined : safeDecode(raw);
        // Gemini's path names the method after a colon (models/{id}:countTokens is a POST); a GET is a retrieve.
        const all = catalogueModels(spec);
        switch (spec.family) {
          case 'anthropic-messages':
            if (id !== undefined) return answer(anthropicModel(entryOrBare(spec, id)));
            return answer({
              data: all.map(anthropicModel),
              has_more: false,
              first_id: all[0]?.id ?? null,
              last_id: all.at(-1)?.id ?? null,
            });
          case 'gemini':
            if (id !== undefined) return answer(geminiModel(entryOrBare(spec, id.replace(/^models\//, ''))));
            return answer({ models: all.map(geminiModel) });
          default:
            if (id !== undefined) return answer(openAIModel(spec, entryOrBare(spec, id)));
            return answer({ object: 'list', data: all.map((e) => openAIModel(spec, e)) });
        }
      }),
    );
  }
  const base = spec.endpoint.baseUrl.replace(/\/$/, '');
  if (spec.family === 'anthropic-messages' && spec.endpoint.path.endsWith('/messages')) {
    routes.push(
      // The path msw matched as a string until routes were plain data (path-to-regexp: any case, a trailing slash allowed).
      mockRoute.post(new RegExp(`^${escapeRegExp(`${base}${spec.endpoint.path}/count_tokens`)}/?$`, 'i'), (request) => {
        const body = jsonOrEmpty(request);
        return answer({ input_tokens: estimateTokens([body.system, body.tools, body.messages]) });
      }),
    );
  }
  if (spec.family === 'gemini' && spec.endpoint.path.includes('{model}:generateContent')) {
    const [before] = `${base}${spec.endpoint.path}`.split('{model}') as [string];
    const pattern = new RegExp(`^${escapeRegExp(before)}([^/?]+?):countTokens(?:\\?.*)?$`);
    routes.push(
      mockRoute.post(pattern, (request) => {
        const body = jsonOrEmpty(request);
        const inner = isPlainObject(body.generateContentRequest) ? body.generateContentRequest : body;
        return answer({ totalTokens: estimateTokens([inner.systemInstruction, inner.tools, inner.contents]) });
      }),
    );
  }
  if (spec.family === 'openai-responses') routes.push(...storedResponseRoutes(spec, base));
  return routes;
}

/**
 * The harness's 404 for a response id it never stored (never issued, issued with store false, or deleted), in
 * OpenAI's envelope. OpenAI's own wording for it is not in any public source found, so the message says it is ours.
 */
function responseNotFound(id: string) {
  return answer(
    {
      error: {
        message: `reasoning-replay mock: no stored response with id '${id}' (it was never issued, issued with store false, or deleted)`,
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    },
    404,
  );
}

/**
 * Responses retrieve, delete and input_items, for the responses the mock stored (rememberResponse): the default
 * `store: true` keeps every response a client did not ask to forget.
 */
function storedResponseRoutes(spec: ProviderSpec, base: string): MockRoute[] {
  const one = new RegExp(`^${escapeRegExp(base)}/responses/([^/?]+)(?:\\?.*)?$`);
  const items = new RegExp(`^${escapeRegExp(base)}/responses/([^/?]+)/input_items(?:\\?.*)?$`);
  const idOf = (pattern: RegExp, url: string) => safeDecode(pattern.exec(url)?.[1] ?? '');
  return [
    mockRoute.get(items, (request) => {
      const id = idOf(items, request.url);
      const stored = storedResponse(spec, id);
      if (!stored) return responseNotFound(id);
      // The API lists input items newest first unless asked otherwise (`order`, default desc).
      const order = new URL(request.url).searchParams.get('order') === 'asc' ? 'asc' : 'desc';
      const data = order === 'asc' ? stored.input : [...stored.input].reverse();
      return answer({
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: false,
      });
    }),
    mockRoute.get(one, (request) => {
      const id = idOf(one, request.url);
      const stored = storedResponse(spec, id);
      return stored ? answer(stored.response) : responseNotFound(id);
    }),
    mockRoute.delete(one, (request) => {
      const id = idOf(one, request.url);
      return forgetResponse(spec, id) ? answer({ id, object: 'response', deleted: true }) : responseNotFound(id);
    }),
  ];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** OpenAI's own answer to a path it does not serve (openai/openai-python#263; the same envelope for GET /). */
const OPENAI_INVALID_URL_SOURCES = [
  'https://github.com/openai/openai-python/issues/263',
  'https://github.com/Ice-Hazymoon/openai-scf-proxy/issues/59',
  'https://github.com/dyc87112/OpenAIProxy/issues/4',
];

/**
 * The answer to a path on the provider's host that no mock models, in the provider's own error shape, naming the
 * method and path asked for. OpenAI's wording ("Invalid URL (GET /v1/...)") is its own, from public reports
 * (OPENAI_INVALID_URL_SOURCES); other providers' wording for an unknown path is not public, so the message is the
 * harness's and says so, inside their usual envelope.
 */
export function unmodelledEndpointAnswer(
  spec: ProviderSpec,
  method: string,
  path: string,
): { status: number; headers: Record<string, string>; body: unknown; sources: string[] } {
  const headers = { 'content-type': 'application/json', [AS_IS_HEADER]: '1' };
  const served = `${spec.label} is modelled at POST ${spec.endpoint.path}${modelsPath(spec) ? ' and GET .../models' : ''}`;
  const ours = `reasoning-replay mock: ${method} ${path} is not modelled (${served})`;
  switch (spec.family) {
    case 'openai-chat':
    case 'openai-responses':
    case 'copilot': {
      const verbatim = new URL(spec.endpoint.baseUrl).host === 'api.openai.com';
      return {
        status: 404,
        headers,
        body: {
          error: {
            message: verbatim ? `Invalid URL (${method} ${path})` : ours,
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        },
        sources: verbatim ? OPENAI_INVALID_URL_SOURCES : [],
      };
    }
    case 'anthropic-messages':
      return {
        status: 404,
        headers,
        body: { type: 'error', error: { type: 'not_found_error', message: ours } },
        sources: [],
      };
    case 'gemini':
      return {
        status: 404,
        headers,
        body: { error: { code: 404, message: ours, status: 'NOT_FOUND' } },
        sources: [],
      };
    default:
      return {
        status: 404,
        headers: { ...headers, 'x-amzn-errortype': 'UnknownOperationException' },
        body: { message: ours },
        sources: [],
      };
  }
}
