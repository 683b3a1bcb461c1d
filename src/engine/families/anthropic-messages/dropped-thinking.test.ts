import { describe, expect, it } from 'vitest';
import { droppedThinkingPaths, sentThinkingSignatures } from './dropped-thinking.js';
import { fromAnthropicMessagesResponse } from './from-response.js';
import { anthropicStreamCarriers } from './stream-carriers.js';

/** An answer that reports a replayed thinking block dropped (binding under drop_block), read body and stream alike. */
const dropped = [{ type: 'thinking_dropped', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' }];
const body = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-fable-5-1',
  content: [{ type: 'text', text: 'Done.' }],
  stop_reason: 'end_turn',
  input_transformations: dropped,
};
const sent = {
  messages: [
    { role: 'user', content: 'a' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 't', signature: 'SIG-A' },
        { type: 'tool_use', id: 'u1', name: 'f', input: {} },
      ],
    },
  ],
};

describe('thinking the provider reports dropped', () => {
  it('reads the paths from the body and from message_start, and nothing from an answer without them', () => {
    expect(fromAnthropicMessagesResponse(body).droppedThinking).toEqual(['messages.1.content.0']);
    const { input_transformations: _none, ...plain } = body;
    expect(fromAnthropicMessagesResponse(plain).droppedThinking).toBeUndefined();
    const stream = anthropicStreamCarriers();
    const event = (e: string, data: unknown) => `event: ${e}\ndata: ${JSON.stringify(data)}\n\n`;
    stream.feed(
      event('message_start', { type: 'message_start', message: { ...body, content: [], stop_reason: null } }) +
        event('content_block_start', {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }) +
        event('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Done.' },
        }) +
        event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
        event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' } }) +
        event('message_stop', { type: 'message_stop' }),
    );
    expect(stream.end().droppedThinking).toEqual(['messages.1.content.0']);
  });

  it('resolves each path to the signature of the thinking block that sat there in the request sent', () => {
    expect(sentThinkingSignatures(droppedThinkingPaths(body), sent)).toEqual(['SIG-A']);
    // A path at a block that is not thinking, out of range, or malformed names nothing.
    expect(sentThinkingSignatures(['messages.1.content.1', 'messages.9.content.0', 'system.0'], sent)).toEqual([]);
  });
});
