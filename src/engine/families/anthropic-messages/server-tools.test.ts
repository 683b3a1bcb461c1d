import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import { feedSplit } from '../split-stream.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { fromAnthropicMessagesResponse } from './from-response.js';
import { anthropicStreamCarriers } from './stream-carriers.js';

/**
 * Server tools (web search here) stream `input_json_delta` on a `server_tool_use` block and
 * `citations_delta` on text blocks; the result block arrives whole. Fixtures beside this test are
 * written in the shape of Anthropic's documented stream (one event per line, as the AI SDK dumps
 * them), so a fresh clone pins the shape without ../shared/real-traffic.
 */
const here = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const body = JSON.parse(readFileSync(here('anthropic-web-search.body.json'), 'utf8')) as {
  content: Record<string, unknown>[];
};
const sse = formatSse(
  readFileSync(here('anthropic-web-search.chunks.txt'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((data) => ({ event: String((JSON.parse(data) as { type: string }).type), data })),
);
const policy = (native?: string) =>
  ({
    routeId: 'anthropic',
    family: 'anthropic-messages',
    tier: 'standard',
    fields: ['reasoning_details'],
    flags: {},
    target: { provider: 'anthropic', host: 'api.anthropic.com', model: 'claude-x' },
    ...(native ? { native } : {}),
  }) as unknown as RoutePolicy;

describe('Anthropic server tools', () => {
  it('reads the stream to the same record as the body, however it is cut', () => {
    const unstreamed = fromAnthropicMessagesResponse(body, policy('anthropic'));
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 30 }), (cuts) => {
        expect(feedSplit(anthropicStreamCarriers(policy('anthropic')), sse, cuts).end()).toEqual(unstreamed);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps every block in position with its id, the streamed server tool input whole', () => {
    const answer = feedSplit(anthropicStreamCarriers(), sse, []).end();
    const blocks = (answer.message.native?.fields as { blocks: { kind: string; block?: Record<string, unknown> }[] })
      .blocks;
    expect(blocks.map((b) => (b.kind === 'block' ? String(b.block!.type) : b.kind))).toEqual([
      'think',
      'text',
      'server_tool_use',
      'web_search_tool_result',
      'text',
      'text',
    ]);
    expect(blocks[2]!.block).toEqual({
      type: 'server_tool_use',
      id: 'srvtoolu_01Example',
      name: 'web_search',
      input: { query: 'example news' },
    });
    expect(blocks[3]!.block!.tool_use_id).toBe('srvtoolu_01Example');
    expect(answer.message.content).toBe("I'll search.Per the results, something happened.");
  });

  it('replays the turn to its own route as it came, and to another Claude route without the server blocks', () => {
    const message = fromAnthropicMessagesResponse(body, policy('anthropic')).message;
    const history = { messages: [{ role: 'user' as const, content: 'news?' }, message] };
    const own = convertToAnthropicMessages(history, policy('anthropic')).messages[1]!.content;
    expect(own).toEqual(body.content);
    const other = convertToAnthropicMessages(history, policy('vertex-anthropic')).messages[1]!.content;
    expect(other.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(JSON.stringify(other)).not.toContain('srvtoolu_01Example');
  });

  it('does not replay a record that no longer fits the message (text edited since capture)', () => {
    const message = { ...fromAnthropicMessagesResponse(body, policy('anthropic')).message, content: 'edited' };
    const own = convertToAnthropicMessages({ messages: [{ role: 'user', content: 'q' }, message] }, policy('anthropic'))
      .messages[1]!.content;
    expect(own.map((b) => b.type)).toEqual(['thinking', 'text']);
  });

  it('refuses a server tool input that is not JSON, and a citations_delta on a non-text block', () => {
    const cut = sse.replace('mple news\\"}', 'mple news');
    expect(() => feedSplit(anthropicStreamCarriers(), cut, []).end()).toThrow(
      /server_tool_use block 2 .*not valid JSON/,
    );
    const stop0 = 'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}';
    const wrong = sse.replace(
      stop0,
      `data: {"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}\n\n${stop0}`,
    );
    expect(wrong).not.toBe(sse);
    expect(() => feedSplit(anthropicStreamCarriers(), wrong, []).end()).toThrow(
      /citations_delta for content block 0, which is a thinking block/,
    );
  });

  it('needs no record for a text block that opened with citations: [] and got none', () => {
    const plain = formatSse(
      [
        { type: 'message_start', message: { content: [] } },
        { type: 'content_block_start', index: 0, content_block: { citations: [], type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
        { type: 'message_stop' },
      ].map((d) => ({ event: d.type, data: JSON.stringify(d) })),
    );
    const answer = feedSplit(anthropicStreamCarriers(), plain, []).end();
    expect(answer.message).toEqual({ role: 'assistant', content: 'hi' });
    expect(answer).toEqual(
      fromAnthropicMessagesResponse({
        content: [{ type: 'text', text: 'hi', citations: null }],
        stop_reason: 'end_turn',
      }),
    );
  });

  it('drops server blocks from a broken stream (they carry encrypted content) and keeps readable text', () => {
    const broken = sse.slice(0, sse.indexOf('"index":5'));
    try {
      feedSplit(anthropicStreamCarriers(), broken, []).end();
      expect.unreachable();
    } catch (error) {
      const partial = (error as { partial: { message: { native?: unknown; content: unknown } } }).partial;
      expect(partial.message.native).toBeUndefined();
      expect(partial.message.content).toBe("I'll search.Per the results, ");
    }
  });
});
