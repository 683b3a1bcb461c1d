import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { specUrl } from '../../shared/provider-specs/provider-spec.js';
import { CALL_HEADER, SCENARIO_HEADER, type Finding } from '../../shared/findings/finding.js';
import { readFindingsHeader } from '../../shared/findings/findings-record.js';
import { FixtureStore } from '../fixtures/fixture-store.js';
import { startMockProviders } from './mock-server.js';
import { getResponse } from 'msw';
import { providerHandlers } from './provider-handlers.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const server = startMockProviders([...specs.values()], new FixtureStore(), { pace: 1 });
beforeAll(() => undefined);
afterAll(() => server.close());

async function post(provider: string, body: unknown, headers: Record<string, string> = {}) {
  const spec = specs.get(provider)!;
  const response = await fetch(specUrl(spec, spec.target.model), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const findings: Finding[] = readFindingsHeader(response.headers, 'the mock answer under test');
  return { response, findings };
}

const unfilled = (text: string) =>
  text.match(/\{(index|block|field|role|path|found|raw|provider_name|model|item|position|param)\}/g) ?? [];

const toolTurn = (extra: Record<string, unknown> = {}) => [
  { role: 'user', content: 'weather?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } }],
    ...extra,
  },
  { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
];

describe('provider mocks generated from specs', () => {
  it('answers Mistral’s own 422 for an extra message key, with the index as a number', async () => {
    const { response, findings } = await post('mistral', {
      model: 'm',
      messages: toolTurn({ reasoning_content: 'x' }),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: Array<{ type: string; loc: unknown[]; msg: string }> };
    expect(body.detail[0]).toMatchObject({
      type: 'extra_forbidden',
      loc: ['body', 'messages', 1, 'assistant', 'reasoning_content'],
      msg: 'Extra inputs are not permitted',
    });
    expect(findings.map((f) => f.rule)).toEqual(['strict-schema']);
  });

  it('answers Groq’s wording for the same mistake', async () => {
    const { response } = await post('groq', { model: 'm', messages: toolTurn({ reasoning_content: 'x' }) });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(
      "'messages.1' : property 'reasoning_content' is unsupported",
    );
  });

  it('answers DeepSeek’s 400 when a tool-call turn comes back without reasoning_content', async () => {
    const { response, findings } = await post('deepseek', { model: 'm', messages: toolTurn({}) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'The `reasoning_content` in the thinking mode must be passed back to the API.',
    );
    expect(findings[0]).toMatchObject({ rule: 'must-echo', params: { index: 1 } });
  });

  it('accepts "" on V3.2 with a warning: contested, and a recording shows DeepSeek accepting it (not refused even strict)', async () => {
    for (const strict of [false, true]) {
      const handlers = providerHandlers(specs.get('deepseek')!, new FixtureStore(), {
        strict,
        defaultScenario: 'tool-call-with-reasoning',
      });
      const response = await getResponse(
        handlers,
        new Request('https://api.deepseek.com/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'deepseek-v3.2', messages: toolTurn({ reasoning_content: '' }) }),
        }),
      );
      expect(response!.status).toBe(200);
      const [finding] = readFindingsHeader(response!.headers, 'the DeepSeek mock') as Finding[];
      expect(finding).toMatchObject({ rule: 'must-echo', contested: true, lenient: true });
      expect(finding!.recordedAcceptance![0]).toMatch(/pydantic-ai.*cassettes/);
    }
  });

  it('accepts the pad and answers from the fixture of the scenario and call the headers name', async () => {
    const { response, findings } = await post(
      'deepseek',
      { model: 'm', messages: toolTurn({ reasoning_content: ' ' }) },
      { [SCENARIO_HEADER]: 'tool-call-with-reasoning', [CALL_HEADER]: '1' },
    );
    expect(response.status).toBe(200);
    expect(findings).toEqual([]);
    const body = (await response.json()) as {
      choices: Array<{ message: { content: string; reasoning_content: string } }>;
    };
    expect(body.choices[0]!.message.content).toBe('Yes: light rain is expected in Lisbon today.');
    expect(body.choices[0]!.message.reasoning_content).toContain('2.1 mm');
  });

  it('streams a fixture as SSE in several chunks over time', async () => {
    const { response } = await post(
      'openrouter',
      { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      { [SCENARIO_HEADER]: 'plain-two-turn-chat', [CALL_HEADER]: '0' },
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const arrivals: number[] = [];
    let text = '';
    const start = Date.now();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      arrivals.push(Date.now() - start);
      text += new TextDecoder().decode(value);
    }
    expect(arrivals.length).toBeGreaterThan(5);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(0);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(text).toContain('"reasoning_details"');
  });

  it('answers a missing fixture with a harness error (599), never as if the provider said it', async () => {
    const { response } = await post(
      'deepseek',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { [SCENARIO_HEADER]: 'no-such-scenario' },
    );
    expect(response.status).toBe(599);
    expect(JSON.stringify(await response.json())).toContain(
      'no fixture fixtures/providers/deepseek/no-such-scenario.json',
    );
  });

  it('answers every malformed body with the provider’s own 4xx, never a 200 or a harness error', async () => {
    for (const spec of specs.values()) {
      for (const body of [
        [1, 2, 3],
        {},
        null,
        { messages: 'hello' },
        { model: spec.target.model, messages: 'hello' },
      ]) {
        const { response } = await post(spec.id, body, { [SCENARIO_HEADER]: 'plain-two-turn-chat' });
        expect([400, 422], `${spec.id} ${JSON.stringify(body)}: ${response.status}`).toContain(response.status);
        expect(unfilled(await response.text()), `${spec.id} ${JSON.stringify(body)}`).toEqual([]);
      }
    }
  });

  it('fills every placeholder for an unknown top-level key and an unknown message key', async () => {
    for (const spec of specs.values()) {
      const base =
        spec.family === 'gemini'
          ? { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
          : spec.family === 'openai-responses'
            ? { model: spec.target.model, input: 'hi' }
            : spec.family === 'bedrock-converse'
              ? { messages: [{ role: 'user', content: [{ text: 'hi' }] }] }
              : {
                  model: spec.target.model,
                  max_tokens: 64,
                  anthropic_version: 'vertex-2023-10-16',
                  messages: [{ role: 'user', content: 'hi' }],
                };
      for (const body of [{ ...base, zz_unknown_key: 1 }]) {
        const { response } = await post(spec.id, body, { [SCENARIO_HEADER]: 'plain-two-turn-chat' });
        expect(response.status, `${spec.id}`).not.toBe(599);
        expect(unfilled(await response.text()), spec.id).toEqual([]);
      }
    }
  });

  it('serves any model id its provider serves, on the SDKs’ own paths', async () => {
    const gemini = specs.get('gemini')!;
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    for (const url of [
      specUrl(gemini, 'gemini-2.5-flash'),
      'https://generativelanguage.googleapis.com/v1/models/gemini-3-flash-preview:generateContent',
      'https://aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-3-pro-preview:generateContent',
    ]) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SCENARIO_HEADER]: 'plain-two-turn-chat' },
        body: JSON.stringify(body),
      });
      expect(response.status, url).toBe(200);
    }
  });

  it('answers a gateway’s upstream error inside the gateway’s envelope', async () => {
    const forged = {
      type: 'reasoning.text',
      text: 'think',
      signature: Buffer.alloc(32, 1).toString('base64'),
      format: 'anthropic-claude-v1',
    };
    const { response } = await post('openrouter', {
      model: 'anthropic/claude-sonnet-4.5',
      messages: toolTurn({ reasoning_details: [forged] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { message: string; metadata: { raw: string; provider_name: string } };
    };
    expect(body.error.message).toBe('Provider returned error');
    expect(body.error.metadata.provider_name).toBe('Anthropic');
    expect(JSON.parse(body.error.metadata.raw)).toMatchObject({
      type: 'error',
      error: { message: 'messages.1.content.0: Invalid `signature` in `thinking` block' },
    });

    const gemini = await post('openrouter', { model: 'google/gemini-3-flash-preview', messages: toolTurn() });
    const raw = ((await gemini.response.json()) as { error: { metadata: { raw: string; provider_name: string } } })
      .error.metadata;
    expect(raw.provider_name).toBe('Google AI Studio');
    expect(raw.raw).toMatch(
      /^Gemini models require OpenRouter reasoning details to be preserved in each request\. .*Upstream error: \{\n {2}"error": \{/s,
    );
    expect(raw.raw).toContain('function call `default_api:w` , position 2.');

    const deepseek = await post('openrouter', { model: 'deepseek/deepseek-v4-flash', messages: toolTurn() });
    expect(
      JSON.parse(((await deepseek.response.json()) as { error: { metadata: { raw: string } } }).error.metadata.raw),
    ).toMatchObject({
      error: { message: 'The `reasoning_content` in the thinking mode must be passed back to the API.' },
    });
  });

  it('refuses a request no mock claims instead of letting it reach the network', async () => {
    await expect(
      fetch('https://api.example.invalid/v1/chat/completions', { method: 'POST', body: '{}' }),
    ).rejects.toThrow();
  });
});
