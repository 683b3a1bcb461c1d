import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { History, Message } from '../../../shared/history/history.js';
import { toOpenAIChatRequest } from '../../../engine/families/openai-chat/to-request.js';
import { fromOpenAIChatResponse } from '../../../engine/families/openai-chat/from-response.js';
import { readOpenAIChatStream } from '../../../engine/families/openai-chat/stream-carriers.js';
import { renderOpenAIChatAnswer } from '../../../provider/families/openai-chat/render-answer.js';
import { judgeRequest } from '../../../provider/handlers/judge-request.js';

/**
 * A mid-session upstream switch on OpenRouter Gemini 3, engine against mock: the first step of a tool loop is served
 * via Vertex, the next request is routed to AI Studio (provider.order). A Vertex signature sent there is refused
 * (OpenRouterTeam/ai-sdk-provider#491); the engine, knowing which upstream wrote the turn, does not send it.
 */
const MODEL = 'google/gemini-3-pro-preview';
// Every spec loaded: the gateway judges with its upstream's registered spec (Gemini's rejections).
const openrouter = loadProviderSpecs().find((s) => s.id === 'openrouter')!;
const table = loadRouteTable();
const routedTo = (order: string): RoutePolicy => {
  const policy = resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model: MODEL });
  return { ...policy, flags: { ...policy.flags, provider: { order: [order] } } };
};

function firstStep(stream: boolean): History {
  const history: History = { messages: [{ role: 'user', content: 'Where is ORD-1234?' }] };
  const request = toOpenAIChatRequest(history, routedTo('google-vertex'));
  const rendered = renderOpenAIChatAnswer(
    {
      content: null,
      reasoning: 'Look the order up.',
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
    },
    { spec: openrouter, call: 0, scenario: 'upstream-switch', model: MODEL, request: request.body },
  );
  const answer = stream ? readOpenAIChatStream(rendered.stream!) : fromOpenAIChatResponse(rendered.body);
  const tool: Message = { role: 'tool', tool_call_id: 'call_0', content: '{"status":"shipped"}' };
  return { messages: [...history.messages, answer.message, tool] };
}

const refusals = (history: History, order: string) =>
  judgeRequest(openrouter, toOpenAIChatRequest(history, routedTo(order)).body).map((f) => f.rejection);

describe('OpenRouter Gemini 3: the upstream switches mid-session', () => {
  it('the switched request is accepted, the same upstream too', () => {
    const history = firstStep(false);
    expect(history.messages[1]!.produced_by).toEqual({ model: MODEL, upstream: 'Google' });
    expect(refusals(history, 'google-ai-studio')).toEqual([]);
    expect(refusals(history, 'google-vertex')).toEqual([]);
  });

  it('a streamed answer names the same upstream', () => {
    expect(firstStep(true).messages[1]!.produced_by).toEqual({ model: MODEL, upstream: 'Google' });
  });

  it('without the upstream the turn was written by, the switched request is refused (what the drop prevents)', () => {
    const history = firstStep(false);
    const { produced_by: _forgotten, ...turn } = history.messages[1]!;
    const forgetful = { messages: history.messages.map((m, i) => (i === 1 ? turn : m)) };
    expect(refusals(forgetful, 'google-ai-studio')).toContain('corrupted-thought-signature');
  });
});
