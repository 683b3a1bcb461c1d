import { describe, expect, it } from 'vitest';
import { fromBedrockConverseResponse } from '../bedrock-converse/from-response.js';
import { fromAnthropicMessagesResponse } from './from-response.js';

describe('fromAnthropicMessagesResponse', () => {
  it('stores thinking and redacted blocks Anthropic-shaped, in order; text joined; tool_use as tool_calls', () => {
    const answer = fromAnthropicMessagesResponse({
      content: [
        { type: 'thinking', thinking: 'a', signature: 'S1' },
        { type: 'redacted_thinking', data: 'D2' },
        { type: 'thinking', thinking: '', signature: 'S3' },
        { type: 'text', text: 'Hel' },
        { type: 'text', text: 'lo' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { x: 1 } },
      ],
      stop_reason: 'tool_use',
    });
    expect(answer).toEqual({
      message: {
        role: 'assistant',
        content: 'Hello',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
        reasoning: 'a',
        reasoning_details: [
          { type: 'thinking', thinking: 'a', signature: 'S1' },
          { type: 'redacted_thinking', data: 'D2', surface: 'anthropic-messages' },
          { type: 'thinking', thinking: '', signature: 'S3' },
        ],
      },
      carriers: {
        reasoning: 'a',
        reasoning_details: [
          { type: 'thinking', thinking: 'a', signature: 'S1' },
          { type: 'redacted_thinking', data: 'D2', surface: 'anthropic-messages' },
          { type: 'thinking', thinking: '', signature: 'S3' },
        ],
      },
      finishReason: 'tool-calls',
    });
  });

  it('keeps a server tool block verbatim and in position, in a native record under the route key', () => {
    const answer = fromAnthropicMessagesResponse({
      content: [
        { type: 'thinking', thinking: 'a', signature: 'S1' },
        { type: 'text', text: 'Hel' },
        { type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} },
        { type: 'text', text: 'lo' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { x: 1 } },
      ],
      stop_reason: 'tool_use',
    });
    expect(answer.message.content).toBe('Hello');
    expect(answer.message.native).toEqual({
      route: 'anthropic',
      fields: {
        blocks: [
          { kind: 'think' },
          { kind: 'text', chars: 3 },
          { kind: 'block', block: { type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} } },
          { kind: 'text', chars: 2 },
          { kind: 'call' },
        ],
      },
    });
  });

  it('names the pointer of a malformed block', () => {
    expect(() => fromAnthropicMessagesResponse({ content: [{ type: 'thinking', signature: 'x' }] })).toThrow(
      '/content/0/thinking',
    );
    expect(() => fromAnthropicMessagesResponse({ error: {} })).toThrow('/content');
  });
});

describe('fromBedrockConverseResponse', () => {
  it('stores reasoningText (signed or not) and redactedContent Anthropic-shaped', () => {
    const answer = fromBedrockConverseResponse({
      output: {
        message: {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'r', signature: 'S' } } },
            { reasoningContent: { redactedContent: 'QUJD' } },
            { reasoningContent: { reasoningText: { text: 'u' } } },
            { text: 'ok' },
          ],
        },
      },
      stopReason: 'end_turn',
    });
    expect(answer.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'r', signature: 'S' },
      { type: 'redacted_thinking', data: 'QUJD', surface: 'bedrock-converse' },
      { type: 'thinking', thinking: 'u' },
    ]);
    expect([answer.message.content, answer.finishReason]).toEqual(['ok', 'stop']);
  });

  it('skips a block kind it has no carrier for, and says so', () => {
    const answer = fromBedrockConverseResponse({
      output: { message: { content: [{ text: 'a' }, { citationsContent: { citations: [] } }] } },
      stopReason: 'end_turn',
    });
    expect(answer.message.content).toBe('a');
    expect(answer.notes).toEqual([
      'a citationsContent block was skipped: this surface has no record to replay it from',
    ]);
  });

  it('names the pointer of a malformed body', () => {
    expect(() => fromBedrockConverseResponse({ output: {} })).toThrow('/output/message/content');
    expect(() => fromBedrockConverseResponse({ output: { message: { content: [{ reasoningContent: {} }] } } })).toThrow(
      '/output/message/content/0/reasoningContent',
    );
  });
});
