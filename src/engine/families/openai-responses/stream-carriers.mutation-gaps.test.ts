import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { OpenAIResponsesAccumulator, readOpenAIResponsesStream } from './stream-carriers.js';

/**
 * The Responses stream repeats each whole item in `output_item.done`, so the tests that replay
 * complete recorded streams never see the deltas do any work. A stream cut before the `.done`
 * events (a dropped connection) is answered from the deltas alone; these cases feed exactly that,
 * plus the malformed events a proxy can produce. Stryker showed them missing (decision 0029).
 */
const ev = (data: Record<string, unknown>, name: string | undefined = String(data.type)): SseEvent => ({
  ...(name ? { event: name } : {}),
  data: JSON.stringify(data),
});
const added = (output_index: number, item: Record<string, unknown>) =>
  ev({ type: 'response.output_item.added', output_index, item });
const completed = (response: Record<string, unknown> = { status: 'completed' }) =>
  ev({ type: 'response.completed', response });

/** Reasoning at 0, text at 1, a function call at 2, each built from deltas only. */
const deltasOnly = [
  added(0, { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'partial-blob' }),
  ev({ type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 0 }),
  ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'check ' }),
  ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, delta: 'the file' }),
  added(1, { id: 'msg_1', type: 'message', role: 'assistant', content: [] }),
  ev({ type: 'response.output_text.delta', output_index: 1, content_index: 0, delta: 'Hel' }),
  ev({ type: 'response.output_text.delta', output_index: 1, delta: 'lo' }),
  added(2, { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read' }),
  ev({ type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"path":' }),
  ev({ type: 'response.function_call_arguments.delta', output_index: 2, delta: '"a.txt"}' }),
];

function feed(events: SseEvent[]): OpenAIResponsesAccumulator {
  const acc = new OpenAIResponsesAccumulator();
  for (const e of events) acc.accept(e);
  return acc;
}

describe('openai-responses stream from deltas alone', () => {
  it('joins summary, text and argument deltas into the answer', () => {
    const answer = readOpenAIResponsesStream([...deltasOnly, completed()]);
    expect(answer.message.content).toBe('Hello');
    expect(answer.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
    ]);
    expect(JSON.stringify(answer.carriers.reasoning_details)).toContain('check the file');
  });

  it('never keeps the partial encrypted blob announced by output_item.added', () => {
    expect(JSON.stringify(readOpenAIResponsesStream([...deltasOnly, completed()]))).not.toContain('partial-blob');
  });

  it('lets the .done events replace what the deltas built', () => {
    const answer = readOpenAIResponsesStream([
      ...deltasOnly,
      ev({ type: 'response.reasoning_summary_text.done', output_index: 0, summary_index: 0, text: 'final summary' }),
      ev({ type: 'response.function_call_arguments.done', output_index: 2, arguments: '{"path":"b.txt"}' }),
      completed(),
    ]);
    expect(answer.message.tool_calls?.[0]?.function.arguments).toBe('{"path":"b.txt"}');
    expect(JSON.stringify(answer.carriers.reasoning_details)).toContain('final summary');
    expect(JSON.stringify(answer.carriers.reasoning_details)).not.toContain('check the file');
  });

  it('orders items by output_index, not by arrival', () => {
    const answer = readOpenAIResponsesStream([
      added(1, { id: 'fc_2', type: 'function_call', call_id: 'call_2', name: 'second', arguments: '{}' }),
      added(0, { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'first', arguments: '{}' }),
      completed(),
    ]);
    expect(answer.message.tool_calls?.map((c) => c.function.name)).toEqual(['first', 'second']);
  });

  it('is finished only once the response completes, and reads a status-less end by its event type', () => {
    const acc = feed(deltasOnly);
    expect(acc.finished).toBe(false);
    acc.accept(ev({ type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } }));
    expect(acc.finished).toBe(true);
    expect(acc.answer(true).finishReason).toBe(
      readOpenAIResponsesStream([
        ...deltasOnly,
        completed({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }),
      ]).finishReason,
    );
    expect(readOpenAIResponsesStream([...deltasOnly, completed({})]).finishReason).toBe(
      readOpenAIResponsesStream([...deltasOnly, completed()]).finishReason,
    );
  });

  it('skips built-in tool progress silently and notes unknown event types', () => {
    const acc = feed([
      ...deltasOnly,
      ev({ type: 'response.web_search_call.searching', output_index: 3 }),
      ev({ type: 'response.brand_new.thing' }),
    ]);
    expect(acc.notes).toEqual(['skipped unknown event type "response.brand_new.thing"']);
  });
});

describe('openai-responses stream faults, each named', () => {
  it.each([
    ['an event without a type', [ev({ output_index: 0 }, undefined)], 'expected an event object with a type'],
    [
      'an event named unlike its type',
      [ev({ type: 'response.output_text.delta', output_index: 0 }, 'response.completed')],
      'event name "response.completed" differs from its data type "response.output_text.delta"',
    ],
    ['a negative output_index', [added(-1, { type: 'message' })], 'output_index is not a non-negative integer'],
    [
      'a fractional summary_index',
      [
        deltasOnly[0]!,
        ev({ type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0.5, delta: 'x' }),
      ],
      'summary_index is not a non-negative integer',
    ],
    ['an added item without a type', [added(0, { id: 'x' })], 'output_item.added has no item with a type'],
    [
      'a done item without a type',
      [ev({ type: 'response.output_item.done', output_index: 0, item: {} })],
      'output_item.done has no item with a type',
    ],
    [
      'a delta for an item never added',
      [ev({ type: 'response.output_text.delta', output_index: 4, delta: 'x' })],
      'response.output_text.delta for output_index 4, which was never added',
    ],
    [
      'an error event',
      [ev({ type: 'error', message: 'rate limited' })],
      'the provider sent an error in the stream: rate limited',
    ],
    [
      'a failed response',
      [ev({ type: 'response.failed', response: { error: { code: 'server_error' } } })],
      'the provider sent an error in the stream: {"code":"server_error"}',
    ],
  ])('%s', (_what, events, message) => {
    expect(() => feed(events)).toThrow(message);
  });

  it('accepts the generic "message" event name, as some proxies send', () => {
    expect(() => feed([ev({ type: 'response.created' }, 'message')])).not.toThrow();
  });
});
