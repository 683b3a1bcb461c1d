import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { providerHandlers } from '../handlers/provider-handlers.js';
import { FixtureStore } from '../fixtures/fixture-store.js';
import { SCENARIO_HEADER } from '../../shared/findings/finding.js';
import { renderOpenAIChatAnswer } from '../families/openai-chat/render-answer.js';

/**
 * Gemini thought signatures behind OpenRouter are bound to the upstream that minted them (OpenRouterTeam/ai-sdk-provider
 * #491): the upstream a request is routed to signs its answer, and refuses a signature the other one minted.
 */
// Every spec loaded: the gateway judges with its upstream's registered spec (Gemini's rejections).
const openrouter = loadProviderSpecs().find((s) => s.id === 'openrouter')!;
const MODEL = 'google/gemini-3-pro-preview';
const routed = (order: string[] | undefined) => (order ? { provider: { order } } : {});

function turnFrom(order: string[] | undefined) {
  const first = { model: MODEL, messages: [{ role: 'user', content: 'Where is ORD-1234?' }], ...routed(order) };
  const answer = renderOpenAIChatAnswer(
    {
      content: null,
      reasoning: 'Look the order up.',
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
    },
    { spec: openrouter, call: 0, scenario: 'upstream-binding', model: MODEL, request: first },
  ).body as { choices: Array<{ message: Record<string, unknown> }> };
  const message = answer.choices[0]!.message;
  return [
    ...first.messages,
    { role: 'assistant', content: null, tool_calls: message.tool_calls, reasoning_details: message.reasoning_details },
    { role: 'tool', tool_call_id: 'call_0', content: '{"status":"shipped"}' },
  ];
}
const next = (messages: unknown[], order: string[] | undefined) => ({ model: MODEL, messages, ...routed(order) });
const refusals = (body: unknown) =>
  judgeRequest(openrouter, body).filter((f) => f.rejection === 'corrupted-thought-signature');

describe('Gemini signatures bound to their upstream behind OpenRouter', () => {
  it('the same upstream both times: accepted (routed, or neither routed)', () => {
    expect(judgeRequest(openrouter, next(turnFrom(['google-vertex']), ['google-vertex']))).toEqual([]);
    expect(judgeRequest(openrouter, next(turnFrom(undefined), undefined))).toEqual([]);
    expect(judgeRequest(openrouter, next(turnFrom(['google-ai-studio']), undefined))).toEqual([]);
  });

  it('the answer names the upstream that served it, in the body and in every stream chunk', () => {
    const served = (order: string[] | undefined) => {
      const request = { model: MODEL, messages: [{ role: 'user', content: 'hi' }], ...routed(order) };
      const { body, stream } = renderOpenAIChatAnswer(
        { content: 'ok', reasoning: 'Think.' },
        { spec: openrouter, call: 0, scenario: 'upstream-binding', model: MODEL, request },
      );
      const chunks = stream!
        .filter((e) => e.data !== '[DONE]')
        .map((e) => (JSON.parse(e.data) as { provider?: unknown }).provider);
      return { body: (body as { provider?: unknown }).provider, chunks: [...new Set(chunks)] };
    };
    expect(served(['google-vertex'])).toEqual({ body: 'Google', chunks: ['Google'] });
    expect(served(['google-ai-studio'])).toEqual({ body: 'Google AI Studio', chunks: ['Google AI Studio'] });
    expect(served(undefined)).toEqual({ body: 'Google AI Studio', chunks: ['Google AI Studio'] });
  });

  it('minted via Vertex, sent to AI Studio (and back): refused by the serving upstream', () => {
    const [toStudio] = refusals(next(turnFrom(['google-vertex']), ['google-ai-studio']));
    expect(toStudio).toMatchObject({
      rule: 'signatures-verbatim',
      via: { provider: 'gemini', providerName: 'Google AI Studio' },
    });
    const [toVertex] = refusals(next(turnFrom(undefined), ['google-vertex']));
    expect(toVertex?.via?.providerName).toBe('Google');
  });

  it('the answer is OpenRouter’s envelope around Google’s own wording', async () => {
    const response = await getResponse(
      providerHandlers(openrouter, new FixtureStore()),
      new Request(`${openrouter.endpoint.baseUrl}${openrouter.endpoint.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SCENARIO_HEADER]: 'tool-call-with-reasoning' },
        body: JSON.stringify(next(turnFrom(['google-vertex']), ['google-ai-studio'])),
      }),
    );
    expect(response!.status).toBe(400);
    const text = await response!.text();
    expect(text).toContain('Provider returned error');
    expect(text).toContain('Corrupted thought signature.');
    expect(text).toContain('Google AI Studio');
  });
});
