import { describe, expect, it } from 'vitest';
import { checkHistory } from '../history/load-history.js';
import { replayForRoute } from '../replay/replay-for-route.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { HistoryFormatError } from '../../shared/errors/history-format-error.js';
import { HISTORY_FORMATS } from './history-formats.js';

const table = loadRouteTable();
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    if (err instanceof HistoryFormatError) return err;
    throw err;
  }
  return undefined;
};

/** What Gemini's OpenAI-compatible endpoint returns for a parallel tool call, exported by an agent. */
const geminiViaOpenAICompat = {
  messages: [
    { role: 'user', content: 'Weather in Paris and London?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'a',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          extra_content: { google: { thought_signature: 'SIG_1' } },
        },
        { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'a', content: '{"temp":18}' },
    { role: 'tool', tool_call_id: 'b', content: 'rainy' },
  ],
};

describe('openai-chat histories', () => {
  it('file a Gemini signature under the Gemini route, where it goes back on the first call; other routes never see it', () => {
    const { history } = HISTORY_FORMATS['openai-chat'].toCanonical(geminiViaOpenAICompat);
    const gemini = replayForRoute(
      checkHistory(history, 'h'),
      resolveRoute(table, {
        provider: 'gemini',
        host: 'generativelanguage.googleapis.com',
        model: 'gemini-3-pro-preview',
      }),
    );
    const model = (gemini.body as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents[1]!;
    expect(model.parts.map((p) => p.thoughtSignature)).toEqual(['SIG_1', undefined]);
    const other = replayForRoute(
      history,
      resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model: 'google/gemini-3-pro-preview' }),
    );
    expect(JSON.stringify(other.body)).not.toContain('SIG_1');
  });

  it('files the signature under the key it is told (vertex-gemini for a Vertex target)', () => {
    const { history } = HISTORY_FORMATS['openai-chat'].toCanonical(geminiViaOpenAICompat, {
      geminiNativeKey: 'vertex-gemini',
    });
    expect(history.messages[1]!.native!.route).toBe('vertex-gemini');
  });

  it("reads function.thought_signature as the call's signature, and says so", () => {
    const moved = structuredClone(geminiViaOpenAICompat) as {
      messages: { tool_calls?: Record<string, Record<string, unknown>>[] }[];
    };
    const call = moved.messages[1]!.tool_calls![0]!;
    delete call.extra_content;
    call.function!.thought_signature = 'SIG_1';
    const read = HISTORY_FORMATS['openai-chat'].toCanonical(moved);
    expect(read.history).toEqual(HISTORY_FORMATS['openai-chat'].toCanonical(geminiViaOpenAICompat).history);
    expect(read.notes[0]).toMatch(/^\/messages\/1\/tool_calls: function\.thought_signature read as/);
  });

  it("keeps Copilot's opaque blob, text and call signature as the Copilot record", () => {
    const { history } = HISTORY_FORMATS['openai-chat'].toCanonical({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          reasoning_text: 'thinking',
          reasoning_opaque: 'OPQ',
          tool_calls: [
            { id: 'c', type: 'function', function: { name: 'f', arguments: '{}', thought_signature: 'TS' } },
          ],
        },
      ],
    });
    expect(history.messages[1]!.native).toEqual({
      route: 'copilot',
      fields: {
        reasoning_opaque: 'OPQ',
        reasoning_text: 'thinking',
        thought_signature: 'TS',
        thought_signature_call: 0,
      },
    });
  });

  it('reads the empty keys an SDK export writes (refusal: null, annotations: []) as absent, with a note', () => {
    const read = HISTORY_FORMATS['openai-chat'].toCanonical({
      messages: [
        {
          role: 'assistant',
          content: 'hi',
          refusal: null,
          annotations: [],
          audio: null,
          function_call: null,
          tool_calls: null,
        },
      ],
    });
    expect(read.history.messages).toEqual([{ role: 'assistant', content: 'hi' }]);
    expect(read.notes).toHaveLength(5);
    expect(
      refusal(() =>
        HISTORY_FORMATS['openai-chat'].toCanonical({
          messages: [{ role: 'assistant', content: 'hi', refusal: 'I cannot' }],
        }),
      )!.pointer,
    ).toBe('/messages/0/refusal');
  });

  it('refuses what it cannot keep, with the pointer', () => {
    const f = HISTORY_FORMATS['openai-chat'];
    expect(refusal(() => f.toCanonical({ messages: [{ role: 'user', content: 'x', audio: {} }] }))!.pointer).toBe(
      '/messages/0/audio',
    );
    expect(refusal(() => f.toCanonical({ messages: [{ role: 'developer', content: 'x' }] }))!.pointer).toBe(
      '/messages/0/role',
    );
    expect(
      refusal(() =>
        f.toCanonical({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }),
      )!.pointer,
    ).toBe('/messages/0/content/0');
    expect(refusal(() => f.toCanonical({ model: 'gpt-5', messages: [] }))!.pointer).toBe('/model');
  });
});

describe('anthropic-messages histories', () => {
  const claude = {
    system: 'Be brief.',
    messages: [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Use the tool.', signature: 'SIG' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
          { type: 'text', text: 'and tomorrow?' },
        ],
      },
    ],
  };

  it('replays its signed thinking on Claude routes byte for byte', () => {
    const { history } = HISTORY_FORMATS['anthropic-messages'].toCanonical(claude);
    const body = replayForRoute(
      checkHistory(history, 'h'),
      resolveRoute(table, { provider: 'anthropic', host: 'api.anthropic.com', model: 'claude-sonnet-4-5' }),
    ).body as {
      messages: { content: unknown[] }[];
    };
    expect(body.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Use the tool.', signature: 'SIG' });
  });

  it('refuses an is_error result, an image and an out-of-order block, with their pointers', () => {
    const f = HISTORY_FORMATS['anthropic-messages'];
    const edit = (change: (c: typeof claude) => void) => {
      const c = structuredClone(claude);
      change(c);
      return refusal(() => f.toCanonical(c))?.pointer;
    };
    expect(edit((c) => ((c.messages[2]!.content as Record<string, unknown>[])[0]!.is_error = true))).toBe(
      '/messages/2/content/0/is_error',
    );
    expect(edit((c) => (c.messages[0]!.content = [{ type: 'image', source: {} }] as never))).toBe(
      '/messages/0/content/0',
    );
    expect(edit((c) => (c.messages[1]!.content as unknown[]).reverse())).toBe('/messages/1/content/1');
  });

  it('drops cache_control with a note', () => {
    const c = structuredClone(claude);
    (c.messages[2]!.content as Record<string, unknown>[])[1]!.cache_control = { type: 'ephemeral' };
    expect(HISTORY_FORMATS['anthropic-messages'].toCanonical(c).notes).toEqual([
      '/messages/2/content/1/cache_control: dropped (a prompt-caching marker, not part of the conversation)',
    ]);
  });
});

describe('gemini-contents histories', () => {
  it('pairs an id-less functionResponse with the oldest open call of its name', () => {
    const { history } = HISTORY_FORMATS['gemini-contents'].toCanonical({
      contents: [
        { role: 'user', parts: [{ text: 'two cities' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'w', args: { c: 'P' } }, thoughtSignature: 'S' },
            { functionCall: { name: 'w', args: { c: 'L' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'w', response: { t: 1 } } },
            { functionResponse: { name: 'w', response: { t: 2 } } },
          ],
        },
      ],
    });
    const ids = history.messages[1]!.tool_calls!.map((c) => c.id);
    expect(history.messages.slice(2).map((m) => m.tool_call_id)).toEqual(ids);
  });

  it('refuses a user part it cannot keep', () => {
    expect(
      refusal(() =>
        HISTORY_FORMATS['gemini-contents'].toCanonical({
          contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] }],
        }),
      )!.pointer,
    ).toBe('/contents/0/parts/0');
  });
});
