import { getResponse } from 'msw';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { catalogueModels } from '../../shared/provider-specs/model-catalogue.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { FixtureStore } from '../fixtures/fixture-store.js';
import { providerHandlers } from './provider-handlers.js';
import { rememberResponse, storedResponse } from '../answers/stored-responses.js';
import { AS_IS_HEADER, estimateTokens, modelsPath, unmodelledEndpointAnswer } from './around-generation.js';

const specs = loadProviderSpecs();
const spec = (id: string) => specs.find((s) => s.id === id)!;
const fixtures = new FixtureStore();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family's own answer shape, read per case
type Json = any;

async function call(s: ProviderSpec, url: string, init: RequestInit = {}) {
  const response = await getResponse(providerHandlers(s, fixtures), new Request(url, init));
  if (!response) throw new Error(`no handler answered ${init.method ?? 'GET'} ${url}`);
  return { status: response.status, asIs: response.headers.has(AS_IS_HEADER), body: (await response.json()) as Json };
}

describe('the models endpoint answers from the catalogue on every spec that has one', () => {
  const withModels = specs.filter((s) => modelsPath(s) !== undefined);

  it('every OpenAI-compatible, Anthropic and Gemini spec has one; only Bedrock Converse and Vertex Claude do not', () => {
    const without = specs.filter((s) => modelsPath(s) === undefined).map((s) => s.family);
    expect(new Set(without)).toEqual(new Set(['bedrock-converse', 'anthropic-messages']));
    expect(
      specs.filter((s) => modelsPath(s) === undefined && s.family === 'anthropic-messages').map((s) => s.id),
    ).toEqual(['vertex-anthropic']);
  });

  it.each(withModels.map((s) => [s.id, s] as const))('%s lists every catalogued model, in order', async (_, s) => {
    const { status, asIs, body } = await call(s, modelsPath(s)!);
    expect(status).toBe(200);
    expect(asIs).toBe(true);
    const ids =
      s.family === 'anthropic-messages'
        ? body.data.map((m: { id: string }) => m.id)
        : s.family === 'gemini'
          ? body.models.map((m: { name: string }) => m.name.replace(/^models\//, ''))
          : body.data.map((m: { id: string }) => m.id);
    expect(ids).toEqual(catalogueModels(s).map((e) => e.id));
  });

  it('OpenAI-compatible: the list and a model object in OpenAI shape, an id with a slash retrieved whole', async () => {
    const groq = spec('groq');
    const list = await call(groq, `${modelsPath(groq)}`);
    expect(list.body.object).toBe('list');
    expect(list.body.data[0]).toEqual({ id: 'openai/gpt-oss-120b', object: 'model', created: 0, owned_by: 'groq' });
    const one = await call(groq, `${modelsPath(groq)}/moonshotai/kimi-k2-instruct`);
    expect(one.body).toMatchObject({ id: 'moonshotai/kimi-k2-instruct', object: 'model' });
  });

  it('Anthropic: display name, creation date and token limits per model', async () => {
    const { body } = await call(spec('anthropic'), 'https://api.anthropic.com/v1/models/claude-opus-5');
    expect(body).toEqual({
      type: 'model',
      id: 'claude-opus-5',
      display_name: 'Claude Opus 5',
      created_at: '2026-07-24T00:00:00Z',
      max_input_tokens: 1_000_000,
      max_tokens: 128_000,
    });
  });

  it('Gemini: models/{id} with its token limits and whether it thinks', async () => {
    const gemini = spec('gemini');
    const { body } = await call(gemini, `${modelsPath(gemini)}/gemini-3-pro-preview`);
    expect(body).toMatchObject({
      name: 'models/gemini-3-pro-preview',
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 65_536,
      thinking: true,
    });
  });

  test('a model the catalogue does not name is still retrieved, under its own id', () =>
    fc.assert(
      fc.asyncProperty(fc.constantFrom(...withModels), fc.stringMatching(/^[a-z][a-z0-9.-]{0,30}$/), async (s, id) => {
        const { status, body } = await call(s, `${modelsPath(s)}/${id}`);
        expect(status).toBe(200);
        expect(body.id ?? body.name).toBe(s.family === 'gemini' ? `models/${id}` : id);
      }),
    ));
});

describe('token counting', () => {
  it("Anthropic's count_tokens answers input_tokens, more for a longer conversation", async () => {
    const count = async (text: string) =>
      (
        await call(spec('anthropic'), 'https://api.anthropic.com/v1/messages/count_tokens', {
          method: 'POST',
          body: JSON.stringify({ model: 'claude-opus-5', messages: [{ role: 'user', content: text }] }),
        })
      ).body.input_tokens as number;
    expect(await count('Hi')).toBeGreaterThan(0);
    expect(await count('Hi '.repeat(400))).toBeGreaterThan(await count('Hi'));
  });

  it("Gemini's countTokens answers totalTokens, for any model in the path", async () => {
    const gemini = spec('gemini');
    const { status, asIs, body } = await call(
      gemini,
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens',
      { method: 'POST', body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] }) },
    );
    expect([status, asIs]).toEqual([200, true]);
    expect(body.totalTokens).toBe(
      estimateTokens([undefined, undefined, [{ role: 'user', parts: [{ text: 'Hello' }] }]]),
    );
  });
});

describe('an endpoint no mock models answers in the provider’s error shape, naming that endpoint', () => {
  it('OpenAI words it as OpenAI does: Invalid URL (GET /v1/responses)', () => {
    const { status, body, sources } = unmodelledEndpointAnswer(spec('openai'), 'GET', '/v1/responses');
    expect(status).toBe(404);
    expect(body).toEqual({
      error: { message: 'Invalid URL (GET /v1/responses)', type: 'invalid_request_error', param: null, code: null },
    });
    expect(sources.length).toBeGreaterThan(0);
  });

  it.each([
    ['groq', (b: Json) => b.error.message],
    ['anthropic', (b: Json) => b.error.message],
    ['gemini', (b: Json) => b.error.message],
    ['bedrock-claude', (b: Json) => b.message],
  ] as const)('%s: its envelope, a message that names the method and path and says it is the harness’s', (id, text) => {
    const { body } = unmodelledEndpointAnswer(spec(id), 'DELETE', '/v1/files/abc');
    expect(text(body)).toContain('DELETE /v1/files/abc');
    expect(text(body)).toContain('reasoning-replay mock');
  });
});

describe('Responses retrieve, input_items and delete, for stored responses', () => {
  const responses = spec('openai-responses');
  const base = 'https://api.openai.com/v1/responses';
  const issue = (store: boolean | undefined, input: unknown = 'Where is my order?') => {
    const request = { model: 'gpt-5', input, ...(store === undefined ? {} : { store }) };
    const response = { id: `resp_${Math.random().toString(16).slice(2)}`, object: 'response', output: [] };
    rememberResponse(responses, request, response);
    return response;
  };

  it('a response asked without store is stored (the API default), retrieved whole, then deleted', async () => {
    const response = issue(undefined);
    expect((await call(responses, `${base}/${response.id}`)).body).toEqual(response);
    const deleted = await call(responses, `${base}/${response.id}`, { method: 'DELETE' });
    expect(deleted.body).toEqual({ id: response.id, object: 'response', deleted: true });
    const gone = await call(responses, `${base}/${response.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain(response.id);
  });

  it('a response asked with store false is not stored: 404 in OpenAI’s envelope', async () => {
    const response = issue(false);
    const { status, body } = await call(responses, `${base}/${response.id}`);
    expect(status).toBe(404);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: null, code: null });
    expect((await call(responses, `${base}/${response.id}/input_items`)).status).toBe(404);
  });

  it('input_items lists the input with ids, newest first unless order=asc', async () => {
    const input = [
      { role: 'user', content: 'first' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'second' }], id: 'msg_given' },
    ];
    const response = issue(true, input);
    const desc = (await call(responses, `${base}/${response.id}/input_items`)).body;
    expect(desc.object).toBe('list');
    expect(desc.data.map((i: { id: string }) => i.id)[0]).toBe('msg_given');
    expect(desc.data[1]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'first' }],
    });
    expect(desc.data[1].id).toMatch(/^msg_[0-9a-f]{40}$/);
    const asc = (await call(responses, `${base}/${response.id}/input_items?order=asc`)).body;
    expect(asc.data.map((i: { id: string }) => i.id)).toEqual(
      [...desc.data.map((i: { id: string }) => i.id)].reverse(),
    );
    expect([asc.first_id, asc.last_id]).toEqual([asc.data[0].id, 'msg_given']);
  });

  it('only the Responses family stores', async () => {
    const chat = spec('openai');
    rememberResponse(chat, { model: 'gpt-5', input: 'x' }, { id: 'resp_chat', object: 'response' });
    expect(storedResponse(chat, 'resp_chat')).toBeUndefined();
  });
});
