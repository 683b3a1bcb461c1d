import { describe, expect, it } from 'vitest';
import type { Message, ReasoningDetail } from '../../../shared/history/history.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { SKIP_SIGNATURE } from '../thought-signature-stand-in.js';
import { convertMessage } from './convert-to-openai-chat-messages.js';
import { fromOpenAIChatResponse } from './from-response.js';
import { readOpenAIChatStream } from './stream-carriers.js';

/**
 * Gemini 3 signatures behind OpenRouter are bound to the upstream that issued them (OpenRouterTeam/ai-sdk-provider#491):
 * the answer names that upstream (top-level `provider`), the turn keeps it, and a request routed to the other upstream
 * does not carry the turn's encrypted items.
 */
const GEMINI = 'google/gemini-3-pro-preview';
const table = loadRouteTable();
const policyFor = (model: string, order?: string[]): RoutePolicy => {
  const policy = resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model });
  return order ? { ...policy, flags: { ...policy.flags, provider: { order } } } : policy;
};
const details: ReasoningDetail[] = [
  { type: 'reasoning.text', text: 'Look the order up.', format: 'google-gemini-v1', index: 0 },
  { type: 'reasoning.encrypted', data: 'sig-minted-by-vertex', format: 'google-gemini-v1', index: 1 },
];
const turn = (upstream: string | undefined, withCalls = true): Message => ({
  role: 'assistant',
  content: null,
  ...(withCalls
    ? { tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }
    : {}),
  reasoning_details: details,
  ...(upstream ? { produced_by: { model: GEMINI, upstream } } : {}),
});
const sent = (message: Message, policy: RoutePolicy) =>
  convertMessage(message, policy).reasoning_details as ReasoningDetail[] | undefined;

describe('the answer names its upstream', () => {
  const body = {
    id: 'gen-1',
    provider: 'Google',
    model: GEMINI,
    choices: [
      { index: 0, message: { role: 'assistant', content: 'hi', reasoning_details: details }, finish_reason: 'stop' },
    ],
  };

  it('a body with reasoning_details keeps model and upstream as produced_by', () => {
    expect(fromOpenAIChatResponse(body).message.produced_by).toEqual({ model: GEMINI, upstream: 'Google' });
  });

  it('a stream keeps the same, read from its chunks', () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      data: JSON.stringify({
        id: 'gen-1',
        provider: 'Google',
        model: GEMINI,
        choices: [{ index: 0, delta, finish_reason: finish }],
      }),
    });
    const events = [
      chunk({ role: 'assistant', reasoning_details: details }),
      chunk({ content: 'hi' }, 'stop'),
      { data: '[DONE]' },
    ];
    expect(readOpenAIChatStream(events).message.produced_by).toEqual({ model: GEMINI, upstream: 'Google' });
  });

  it('no reasoning_details, or no provider member: no produced_by', () => {
    const plain = {
      ...body,
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    };
    expect(fromOpenAIChatResponse(plain).message.produced_by).toBeUndefined();
    expect(fromOpenAIChatResponse({ ...body, provider: undefined }).message.produced_by).toBeUndefined();
  });
});

describe('a turn bound to another upstream', () => {
  it('routed to the other upstream: the encrypted item becomes the stand-in, readable text stays', () => {
    expect(sent(turn('Google'), policyFor(GEMINI, ['google-ai-studio']))).toEqual([
      details[0],
      { ...details[1], data: SKIP_SIGNATURE },
    ]);
    expect(sent(turn('Google AI Studio'), policyFor(GEMINI, ['google-vertex']))?.at(-1)).toMatchObject({
      data: SKIP_SIGNATURE,
    });
  });

  it('a turn without tool calls: the encrypted item is left out', () => {
    expect(sent(turn('Google', false), policyFor(GEMINI, ['google-ai-studio']))).toEqual([details[0]]);
  });

  it('same upstream, unknown producer or routing, unbound upstream or model: sent as it came', () => {
    expect(sent(turn('Google'), policyFor(GEMINI, ['google-vertex']))).toBe(details);
    expect(sent(turn('Google'), policyFor(GEMINI))).toBe(details);
    expect(sent(turn(undefined), policyFor(GEMINI, ['google-ai-studio']))).toBe(details);
    expect(sent(turn('Anthropic'), policyFor(GEMINI, ['google-ai-studio']))).toBe(details);
    expect(sent(turn('Google'), policyFor('google/gemini-2.5-pro', ['google-ai-studio']))).toBe(details);
  });
});
