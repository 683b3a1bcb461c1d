import { describe, expect, it } from 'vitest';
import type { History, Message } from '../../../shared/history/history.js';
import { replayForRoute } from '../../replay/replay-for-route.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import type { RouteTarget } from '../../../shared/route-table/route-table.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { HistoryShapeError } from '../../../shared/errors/history-shape-error.js';
import { fromGeminiResponse } from './from-response.js';

const table = loadRouteTable();
const policyFor = (target: RouteTarget) => resolveRoute(table, target);
const gemini = policyFor({
  provider: 'gemini',
  host: 'generativelanguage.googleapis.com',
  model: 'gemini-3-pro-preview',
});

/** A Gemini 3 answer with parallel calls: the signature sits on the first functionCall part only. */
const parallelAnswer = fromGeminiResponse({
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          { text: 'Checking both cities.', thought: true },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG_FIRST_CALL' },
          { functionCall: { name: 'get_weather', args: { city: 'London' } } },
        ],
      },
      finishReason: 'STOP',
    },
  ],
});

const textTurn = fromGeminiResponse({
  candidates: [
    {
      content: { role: 'model', parts: [{ text: 'Both are mild.', thoughtSignature: 'SIG_TEXT_TURN' }] },
      finishReason: 'STOP',
    },
  ],
});

function conversation(): History {
  const calls = parallelAnswer.message.tool_calls!;
  const messages: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris and London?' },
    parallelAnswer.message,
    { role: 'tool', tool_call_id: calls[0]!.id, content: '{"temp":18}' },
    { role: 'tool', tool_call_id: calls[1]!.id, content: 'rainy' },
    textTurn.message,
    { role: 'user', content: 'Thanks' },
  ];
  return { messages: structuredClone(messages) };
}

describe('gemini request', () => {
  it('replays signatures on the parts they came on: first parallel call, text-turn part, thought part', () => {
    const body = replayForRoute(deepFreeze(conversation()), gemini).body;
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and London?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking both cities.', thought: true },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG_FIRST_CALL' },
          { functionCall: { name: 'get_weather', args: { city: 'London' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 18 } } },
          { functionResponse: { name: 'get_weather', response: { result: 'rainy' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Both are mild.', thoughtSignature: 'SIG_TEXT_TURN' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it("gives a current-turn function call with no signature Google's stand-in, and leaves earlier turns alone", () => {
    const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'ls', arguments: '{}' } });
    const history: History = {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: null, tool_calls: [call('c1')] },
        { role: 'tool', tool_call_id: 'c1', content: 'x' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'second' },
        { role: 'assistant', content: null, tool_calls: [call('c2'), call('c3')] },
        { role: 'tool', tool_call_id: 'c2', content: 'y' },
        { role: 'tool', tool_call_id: 'c3', content: 'z' },
      ],
    };
    const contents = (
      replayForRoute(history, gemini).body as { contents: Array<{ parts: Array<Record<string, unknown>> }> }
    ).contents;
    expect(contents[1]!.parts[0]).toEqual({ functionCall: { name: 'ls', args: {} } });
    expect(contents[5]!.parts.map((p) => p.thoughtSignature)).toEqual(['skip_thought_signature_validator', undefined]);
  });

  it('uses the streaming path when asked to stream', () => {
    const request = replayForRoute(conversation(), gemini, { stream: true });
    expect(request.path).toBe('/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    expect(replayForRoute(conversation(), gemini).path).toBe('/models/gemini-3-pro-preview:generateContent');
  });

  it('never leaves the Gemini route: other routes see no signature and no thought part', () => {
    const history = deepFreeze(conversation());
    const targets: RouteTarget[] = [
      { provider: 'openrouter', host: 'openrouter.ai', model: 'google/gemini-3-pro-preview' },
      { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-pro' },
      { provider: 'openai', host: 'api.openai.com', model: 'gpt-5' },
      { provider: 'vertex', host: 'aiplatform.googleapis.com', model: 'gemini-3-pro-preview' },
      { provider: 'anthropic', host: 'api.anthropic.com', model: 'claude-sonnet-4-5' },
      { provider: 'copilot', host: 'api.githubcopilot.com', model: 'gemini-3-pro-preview' },
      { provider: 'openai-responses', host: 'api.openai.com', model: 'gpt-5' },
      { provider: 'bedrock', host: 'bedrock-runtime.us-east-1.amazonaws.com', model: 'anthropic.claude-sonnet-4-5' },
    ];
    for (const target of targets) {
      const policy = policyFor(target);
      if (policy.routeId === 'gemini') throw new Error(`${target.provider} resolved to the gemini route`);
      const wire = JSON.stringify(replayForRoute(history, policy).body);
      expect(wire, policy.routeId).not.toContain('SIG_');
      expect(wire, policy.routeId).not.toMatch(/thought_?[sS]ignature|"native"/);
    }
  });

  it('leaves history as it was', () => {
    const history = conversation();
    const before = JSON.stringify(history);
    replayForRoute(deepFreeze(history), gemini);
    expect(JSON.stringify(history)).toBe(before);
  });

  it('refuses a record whose message was edited after capture, naming it, rather than dropping its signatures', () => {
    const history = conversation();
    history.messages[5] = { ...history.messages[5]!, content: 'Edited text.' };
    const refused = (() => {
      try {
        replayForRoute(history, gemini);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(HistoryShapeError);
    expect((refused as HistoryShapeError).pointer).toBe('/messages/5/native/fields/parts');
    expect((refused as HistoryShapeError).problem).toContain(
      'its text parts hold 14 characters but the message content has 12',
    );
    expect((refused as HistoryShapeError).hint).toContain('{"parts": [');
  });

  it('reads the flat {"thoughtSignature"} form by Google\'s rule: first functionCall part of the step, else the last part', () => {
    const calls = parallelAnswer.message.tool_calls!;
    const history: History = {
      messages: [
        { role: 'user', content: 'Weather in Paris and London?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: calls,
          native: { route: 'gemini', fields: { thoughtSignature: 'FLAT_CALL' } },
        },
        { role: 'tool', tool_call_id: calls[0]!.id, content: '{"temp":18}' },
        { role: 'tool', tool_call_id: calls[1]!.id, content: 'rainy' },
        {
          role: 'assistant',
          content: 'Both are mild.',
          native: { route: 'gemini', fields: { thoughtSignature: 'FLAT_TEXT' } },
        },
      ],
    };
    const body = replayForRoute(history, gemini).body as { contents: Array<{ parts: Array<Record<string, unknown>> }> };
    expect(body.contents[1]!.parts.map((p) => p.thoughtSignature)).toEqual([undefined, 'FLAT_CALL', undefined]);
    expect(body.contents[3]!.parts).toEqual([{ text: 'Both are mild.', thoughtSignature: 'FLAT_TEXT' }]);
  });

  it('refuses an unreadable record with its pointer and the expected shape', () => {
    const bad = (fields: Record<string, unknown>): History => ({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'x', native: { route: 'gemini', fields } },
      ],
    });
    for (const [fields, pointer] of [
      [{ thoughtSignature: '' }, '/messages/1/native/fields/thoughtSignature'],
      [{ signature: 'S' }, '/messages/1/native/fields'],
      [{ parts: [{ kind: 'text', chars: 'one' }] }, '/messages/1/native/fields/parts/0'],
    ] as const) {
      expect(() => replayForRoute(bad(fields), gemini), JSON.stringify(fields)).toThrow(HistoryShapeError);
      try {
        replayForRoute(bad(fields), gemini);
      } catch (err) {
        expect((err as HistoryShapeError).pointer).toBe(pointer);
      }
    }
  });

  it('drops an empty or non-string signature from a stored record', () => {
    const history: History = {
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'hello',
          native: { route: 'gemini', fields: { parts: [{ kind: 'text', chars: 5, thoughtSignature: '' }] } },
        },
        {
          role: 'assistant',
          content: 'again',
          native: { route: 'gemini', fields: { parts: [{ kind: 'text', chars: 5, thoughtSignature: 12 }] } },
        },
      ],
    };
    const body = replayForRoute(history, gemini).body as { contents: unknown[] };
    expect(body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ text: 'hello' }] },
      { role: 'model', parts: [{ text: 'again' }] },
    ]);
  });

  it('converts OpenAI-style tools to functionDeclarations and asks for thought summaries', () => {
    const tools = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const body = replayForRoute(conversation(), gemini, { tools }).body;
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
      },
    ]);
    expect(body.generationConfig).toEqual({ thinkingConfig: { includeThoughts: true } });
  });
});
