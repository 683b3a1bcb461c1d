import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../../shared/scenarios/scenario.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { readStreamEvents, StreamCarriers } from '../stream-carriers.js';
import type { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { fromAnthropicMessagesResponse } from './from-response.js';
import { renderAnthropicMessagesAnswer } from '../../../provider/families/anthropic-messages/render-answer.js';
import { AnthropicStreamAccumulator, anthropicStreamCarriers } from './stream-carriers.js';
import { streamFailure } from '../split-stream.js';

const spec = {
  id: 'anthropic',
  target: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  response: { carriers: ['reasoning_details'] },
} as unknown as ProviderSpec;
const render = (answer: ScriptedAnswer, call = 0) =>
  renderAnthropicMessagesAnswer(answer, { spec, call, scenario: 'unit' });

const toolAnswer: ScriptedAnswer = {
  reasoning: 'I should look up the weather in Oslo first.',
  content: 'Checking.',
  tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city": "Oslo"}' } }],
};

function streamed(events: SseEvent[]) {
  return readStreamEvents(new AnthropicStreamAccumulator(), events);
}

function failure(events: SseEvent[], cut?: string): StreamCarrierError<ParsedAnswer> {
  return streamFailure(anthropicStreamCarriers(), cut ?? events);
}

const ev = (payload: Record<string, unknown>): SseEvent => ({
  event: String(payload.type),
  data: JSON.stringify(payload),
});

describe('Anthropic stream carriers', () => {
  it.each([
    ['thinking + text + tool use', toolAnswer],
    ['redacted thinking', { reasoning: 'secret', redacted: true, content: 'Done.' }],
    ['no reasoning', { content: 'plain' }],
    ['empty (omitted-display) thinking', { reasoning: '', content: 'x' }],
  ] as [string, ScriptedAnswer][])('gives the unstreamed answer for %s', (_name, answer) => {
    const { body, stream } = render(answer);
    expect(streamed(stream)).toEqual(fromAnthropicMessagesResponse(body));
  });

  it('gives the same answer however the SSE bytes are split (every split point)', () => {
    const { body, stream } = render(toolAnswer);
    const text = formatSse(stream);
    const expected = fromAnthropicMessagesResponse(body);
    for (let at = 0; at <= text.length; at++) {
      const carriers = anthropicStreamCarriers();
      carriers.feed(text.slice(0, at));
      carriers.feed(text.slice(at));
      expect(carriers.end()).toEqual(expected);
    }
  });

  it('stores the signature that arrives in a final text-less signature_delta', () => {
    const { stream } = render(toolAnswer);
    const deltas = stream
      .map((e) => JSON.parse(e.data))
      .filter((p) => p.type === 'content_block_delta' && p.delta.type === 'signature_delta');
    expect(deltas).toHaveLength(1);
    expect(Object.keys(deltas[0].delta)).toEqual(['type', 'signature']);
    const answer = streamed(stream);
    expect(answer.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: toolAnswer.reasoning, signature: deltas[0].delta.signature },
    ]);
  });

  it('reports a stream cut mid-event, keeps the text, and never emits the half-built signed block', () => {
    const { stream } = render(toolAnswer);
    const text = formatSse(stream);
    const sigAt = text.indexOf('signature_delta');
    const error = failure([], text.slice(0, sigAt + 20));
    expect(error.message).toMatch(/stream event \d+: the stream was cut off inside this event/);
    expect(error.partial.message.reasoning_details).toBeUndefined();
    expect(error.partial.message.reasoning).toBeUndefined();
  });

  it('reports a stream that ends between events before message_stop, naming the next index', () => {
    const { stream } = render(toolAnswer);
    const error = failure(stream.slice(0, 9));
    expect(error.eventIndex).toBe(9);
    expect(error.problem).toMatch(/ended before its final event/);
  });

  it('skips a well-formed event of an unknown type with a note (Anthropic: "handle unknown event types gracefully")', () => {
    const { stream, body } = render({ content: 'hello there', reasoning: 'r' });
    const at = stream.findIndex((e) => e.data.includes('text_delta')) + 1;
    const carriers = anthropicStreamCarriers();
    for (const e of [...stream.slice(0, at), ev({ type: 'mystery_event' }), ...stream.slice(at)])
      carriers.acceptEvent(e);
    expect(carriers.end()).toEqual(fromAnthropicMessagesResponse(body));
    expect(carriers.notes).toEqual(['skipped unknown event type "mystery_event"']);
  });

  it('refuses a signature_delta on a block that is not thinking', () => {
    const events = [
      ev({ type: 'message_start', message: { content: [] } }),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'abc' } }),
    ];
    const error = failure(events);
    expect(error.eventIndex).toBe(2);
    expect(error.problem).toMatch(/signature_delta for content block 0, which is a text block, not thinking/);
  });

  it('refuses a signature_delta for a block that never started', () => {
    const error = failure([
      ev({ type: 'message_start', message: {} }),
      ev({ type: 'content_block_delta', index: 3, delta: { type: 'signature_delta', signature: 'abc' } }),
    ]);
    expect(error.eventIndex).toBe(1);
    expect(error.problem).toMatch(/never started/);
  });

  it('refuses a thinking block that stops without a signature', () => {
    const error = failure([
      ev({ type: 'message_start', message: {} }),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'half' } }),
      ev({ type: 'content_block_stop', index: 0 }),
    ]);
    expect(error.eventIndex).toBe(3);
    expect(error.problem).toMatch(/without a signature/);
    expect(error.partial.message.reasoning_details).toBeUndefined();
  });

  it('names the event whose data line is not JSON', () => {
    const { stream } = render(toolAnswer);
    const events = stream.map((e, i) => (i === 4 ? { ...e, data: '{"type":"content_block_delta",' } : e));
    const error = failure(events);
    expect(error.eventIndex).toBe(4);
    expect(error.problem).toMatch(/invalid JSON in data line/);
  });

  it('reports a provider error event with its message', () => {
    const error = failure([
      ev({ type: 'message_start', message: {} }),
      ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    ]);
    expect(error.eventIndex).toBe(1);
    expect(error.problem).toMatch(/overloaded_error: Overloaded/);
  });

  it('ignores ping and reads the raw event name when data has no type', () => {
    const carriers = new StreamCarriers(new AnthropicStreamAccumulator());
    carriers.acceptEvent({ event: 'ping', data: '{}' });
    carriers.acceptEvent({ event: 'message_stop', data: '{}' });
    expect(carriers.end().message).toEqual({ role: 'assistant', content: null });
  });
});
