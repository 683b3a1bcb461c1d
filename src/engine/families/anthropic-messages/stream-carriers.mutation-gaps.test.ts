import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { readStreamEvents, type StreamCarriers } from '../stream-carriers.js';
import type { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { streamFailure } from '../split-stream.js';
import { AnthropicStreamAccumulator, anthropicStreamCarriers } from './stream-carriers.js';

/**
 * The tests beside this file replay whole streams the mock renders, so a branch that only a cut,
 * reordered or malformed stream reaches was never run (Stryker had this accumulator at 59.6%,
 * decision 0029). These streams are written by hand, event by event, in the shapes of
 * https://platform.claude.com/docs/en/build-with-claude/streaming (content_block_start / _delta /
 * _stop, signature_delta, message_delta's stop_reason, the `error` event).
 */
const ev = (payload: Record<string, unknown>, name: string | undefined = String(payload.type)): SseEvent => ({
  ...(name ? { event: name } : {}),
  data: JSON.stringify(payload),
});
const begin = ev({ type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } });
const start = (index: number, content_block: Record<string, unknown>) =>
  ev({ type: 'content_block_start', index, content_block });
const delta = (index: number, d: Record<string, unknown>) => ev({ type: 'content_block_delta', index, delta: d });
const stop = (index: number) => ev({ type: 'content_block_stop', index });
const stopReason = (reason: string) =>
  ev({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } });
const end = ev({ type: 'message_stop' });

/** Signed thinking at 0 (two signature pieces), text at 1, a tool call at 2: a whole tool turn. */
const thinkingBlock = [
  start(0, { type: 'thinking', thinking: '', signature: '' }),
  delta(0, { type: 'thinking_delta', thinking: 'look up ' }),
  delta(0, { type: 'thinking_delta', thinking: 'Oslo' }),
  delta(0, { type: 'signature_delta', signature: 'SIG-part-1/' }),
  delta(0, { type: 'signature_delta', signature: 'SIG-part-2' }),
  stop(0),
];
const textBlock = [
  start(1, { type: 'text', text: '' }),
  delta(1, { type: 'text_delta', text: 'Check' }),
  delta(1, { type: 'text_delta', text: 'ing.' }),
  stop(1),
];
const toolBlock = [
  start(2, { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }),
  delta(2, { type: 'input_json_delta', partial_json: '{"city": ' }),
  delta(2, { type: 'input_json_delta', partial_json: '"Oslo"}' }),
  stop(2),
];
const toolTurn = [begin, ...thinkingBlock, ...textBlock, ...toolBlock, stopReason('tool_use'), end];

function failure(
  events: SseEvent[],
  carriers: StreamCarriers = anthropicStreamCarriers(),
): StreamCarrierError<ParsedAnswer> {
  return streamFailure(carriers, events);
}

function feed(events: SseEvent[], acc = new AnthropicStreamAccumulator()): AnthropicStreamAccumulator {
  for (const e of events) acc.accept(e);
  return acc;
}

describe('Anthropic stream: a whole tool turn built from deltas', () => {
  it('joins every thinking, signature, text and input piece, in order', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), toolTurn);
    expect(answer.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'look up Oslo', signature: 'SIG-part-1/SIG-part-2' },
    ]);
    expect(answer.message.reasoning).toBe('look up Oslo');
    expect(answer.message.content).toBe('Checking.');
    expect(answer.message.tool_calls).toEqual([
      { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
    ]);
    expect(answer.finishReason).toBe('tool-calls');
    expect(answer.carriers.native).toBeUndefined();
  });

  it('keeps what a content_block_start already carries (thinking, signature, text, redacted data)', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'thinking', thinking: 'pre-', signature: 'SIG-at-start' }),
      delta(0, { type: 'thinking_delta', thinking: 'filled' }),
      stop(0),
      start(1, { type: 'redacted_thinking', data: 'REDACTED-BLOB' }),
      stop(1),
      start(2, { type: 'text', text: 'Hello ' }),
      delta(2, { type: 'text_delta', text: 'world' }),
      stop(2),
      stopReason('end_turn'),
      end,
    ]);
    expect(answer.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'pre-filled', signature: 'SIG-at-start' },
      { type: 'redacted_thinking', data: 'REDACTED-BLOB', surface: 'anthropic-messages' },
    ]);
    expect(answer.message.content).toBe('Hello world');
    expect(answer.finishReason).toBe('stop');
  });

  it('ignores non-string pieces instead of writing "undefined" into the block', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'thinking', thinking: null, signature: 7 }),
      delta(0, { type: 'thinking_delta' }),
      delta(0, { type: 'signature_delta', signature: 'SIG' }),
      stop(0),
      start(1, { type: 'text' }),
      delta(1, { type: 'text_delta', text: 'ok' }),
      delta(1, { type: 'text_delta', text: 5 }),
      stop(1),
      end,
    ]);
    expect(answer.message.reasoning_details).toEqual([{ type: 'thinking', thinking: '', signature: 'SIG' }]);
    expect(answer.message.content).toBe('ok');
    expect(answer.finishReason).toBeNull();
  });

  it('orders blocks by their index, not by when they started (interleaved indexes)', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(2, { type: 'tool_use', id: 'toolu_b', name: 'second', input: {} }),
      start(1, { type: 'tool_use', id: 'toolu_a', name: 'first', input: {} }),
      start(0, { type: 'thinking', thinking: 't', signature: '' }),
      delta(0, { type: 'signature_delta', signature: 'S' }),
      delta(2, { type: 'input_json_delta', partial_json: '{"n":2}' }),
      delta(1, { type: 'input_json_delta', partial_json: '{"n":1}' }),
      stop(2),
      stop(0),
      stop(1),
      stopReason('tool_use'),
      end,
    ]);
    expect(answer.message.tool_calls?.map((c) => [c.id, c.function.arguments])).toEqual([
      ['toolu_a', '{"n":1}'],
      ['toolu_b', '{"n":2}'],
    ]);
    expect(answer.message.reasoning_details).toEqual([{ type: 'thinking', thinking: 't', signature: 'S' }]);
  });

  it('gives a tool call whose input never streamed (or is blank) an empty input', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} }),
      stop(0),
      start(1, { type: 'tool_use', id: 'toolu_2', name: 'later', input: {} }),
      delta(1, { type: 'input_json_delta', partial_json: '  ' }),
      delta(1, { type: 'input_json_delta' }),
      stop(1),
      end,
    ]);
    expect(answer.message.tool_calls?.map((c) => c.function.arguments)).toEqual(['{}', '{}']);
  });

  it('maps each stop_reason, keeps it across a later message_delta without one, and reads a delta-less message_delta', () => {
    const finish = (...tail: SseEvent[]) =>
      readStreamEvents(new AnthropicStreamAccumulator(), [begin, ...textBlock, ...tail, end]).finishReason;
    expect(finish(stopReason('max_tokens'))).toBe('length');
    expect(finish(stopReason('refusal'))).toBe('content-filter');
    expect(finish(stopReason('pause_turn'))).toBe('other');
    expect(finish(stopReason('end_turn'), ev({ type: 'message_delta', delta: {}, usage: { output_tokens: 3 } }))).toBe(
      'stop',
    );
    expect(finish(stopReason('end_turn'), ev({ type: 'message_delta', usage: { output_tokens: 3 } }))).toBe('stop');
  });

  it('reads each event by the type in its data, whatever its event line says (or when it has none)', () => {
    const unnamed = toolTurn.map((e) => ({ data: e.data }));
    expect(readStreamEvents(new AnthropicStreamAccumulator(), unnamed)).toEqual(
      readStreamEvents(new AnthropicStreamAccumulator(), toolTurn),
    );
    const misnamed = toolTurn.map((e) => ({ event: 'message', data: e.data }));
    expect(readStreamEvents(new AnthropicStreamAccumulator(), misnamed).message.content).toBe('Checking.');
  });

  it('reads the event name when the data has no string type, and is finished only by message_stop', () => {
    const acc = feed([
      ev({ type: 7 }, 'message_start'),
      ev({ index: 0, content_block: { type: 'text', text: 'hi' } }, 'content_block_start'),
      ev({ index: 0 }, 'content_block_stop'),
    ]);
    expect(acc.finished).toBe(false);
    acc.accept(ev({}, 'message_stop'));
    expect(acc.finished).toBe(true);
    expect(acc.answer(true).message.content).toBe('hi');
  });

  it('files the native record under the route’s own key (citations, server tool blocks)', () => {
    const events = [
      begin,
      start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '{"query":"oslo"}' }),
      stop(0),
      start(1, {
        type: 'text',
        text: '',
        citations: [{ type: 'web_search_result_location', url: 'https://a.example' }],
      }),
      delta(1, { type: 'citations_delta', citation: { type: 'web_search_result_location', url: 'https://b.example' } }),
      delta(1, { type: 'text_delta', text: 'Sunny.' }),
      stop(1),
      start(2, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }),
      stop(2),
      stopReason('end_turn'),
      end,
    ];
    const answer = readStreamEvents(new AnthropicStreamAccumulator('vertex-claude'), events);
    expect(answer.carriers.native).toEqual({
      route: 'vertex-claude',
      fields: {
        blocks: [
          {
            kind: 'block',
            block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'oslo' } },
          },
          {
            kind: 'text',
            chars: 6,
            extra: {
              citations: [
                { type: 'web_search_result_location', url: 'https://a.example' },
                { type: 'web_search_result_location', url: 'https://b.example' },
              ],
            },
          },
          { kind: 'block', block: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] } },
        ],
      },
    });
    const carriers = anthropicStreamCarriers({ native: 'foundry-claude' } as Parameters<
      typeof anthropicStreamCarriers
    >[0]);
    for (const e of events) carriers.acceptEvent(e);
    expect(carriers.end().carriers.native?.route).toBe('foundry-claude');
    const byDefault = anthropicStreamCarriers();
    for (const e of events) byDefault.acceptEvent(e);
    expect(byDefault.end().carriers.native?.route).toBe('anthropic');
  });

  it('keeps a server tool block whose streamed input is blank as its start sent it', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'given' } }),
      delta(0, { type: 'input_json_delta', partial_json: '' }),
      delta(0, { type: 'input_json_delta', partial_json: ' ' }),
      stop(0),
      end,
    ]);
    expect(answer.carriers.native?.fields).toEqual({
      blocks: [
        {
          kind: 'block',
          block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'given' } },
        },
      ],
    });
  });

  it('keeps a text block’s start extras without citations deltas, and none when there are none', () => {
    const withExtra = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'text', text: 'x', cache: 'kept' }),
      stop(0),
      end,
    ]);
    expect(withExtra.carriers.native).toEqual({
      route: 'anthropic',
      fields: { blocks: [{ kind: 'text', chars: 1, extra: { cache: 'kept' } }] },
    });
    const plain = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'text', text: 'x', citations: null }),
      stop(0),
      end,
    ]);
    expect(plain.carriers.native).toBeUndefined();
    const deltaOnly = readStreamEvents(new AnthropicStreamAccumulator(), [
      begin,
      start(0, { type: 'text', text: '' }),
      delta(0, { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'c' } }),
      stop(0),
      end,
    ]);
    expect(deltaOnly.carriers.native?.fields).toEqual({
      blocks: [{ kind: 'text', chars: 0, extra: { citations: [{ type: 'char_location', cited_text: 'c' }] } }],
    });
  });
});

describe('Anthropic stream cut before content_block_stop / message_stop', () => {
  it('keeps readable text and closed tool calls, never a signed, redacted or server block', () => {
    const error = failure([
      begin,
      ...thinkingBlock,
      start(1, { type: 'redacted_thinking', data: 'BLOB' }),
      stop(1),
      start(2, { type: 'text', text: '' }),
      delta(2, { type: 'text_delta', text: 'Half an' }),
      start(3, { type: 'tool_use', id: 'toolu_done', name: 'closed', input: {} }),
      delta(3, { type: 'input_json_delta', partial_json: '{"a":1}' }),
      stop(3),
      start(4, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      stop(4),
      start(5, { type: 'tool_use', id: 'toolu_cut', name: 'cut', input: {} }),
      delta(5, { type: 'input_json_delta', partial_json: '{"b":' }),
    ]);
    expect(error.problem).toBe('the stream ended before its final event');
    expect(error.partial.message.content).toBe('Half an');
    expect(error.partial.message.tool_calls?.map((c) => c.id)).toEqual(['toolu_done']);
    expect(error.partial.message.reasoning_details).toBeUndefined();
    expect(error.partial.carriers.native).toBeUndefined();
    expect(error.partial.finishReason).toBeNull();
  });

  it('refuses message_stop while blocks are open, naming each', () => {
    const error = failure([
      begin,
      start(0, { type: 'text', text: '' }),
      start(1, { type: 'text', text: '' }),
      start(2, { type: 'text', text: '' }),
      stop(1),
      end,
    ]);
    expect(error.eventIndex).toBe(5);
    expect(error.problem).toBe('message_stop while content block(s) 0, 2 were still open');
  });

  it('does not keep a server tool block that never stopped, even once the stream ends', () => {
    const acc = feed([begin, start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} })]);
    expect(acc.answer(true).carriers.native).toBeUndefined();
  });
});

describe('Anthropic stream faults, each named', () => {
  const cases: [string, SseEvent[], number, string][] = [
    ['data that is not an object', [begin, { event: 'ping', data: '[1]' }], 1, 'data is not a JSON object'],
    ['an event with neither a type nor a name', [begin, { data: '{}' }], 1, 'event has no type'],
    [
      'an error event',
      [begin, ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })],
      1,
      'the provider sent an error event: overloaded_error: Overloaded',
    ],
    [
      'an error event without its error object',
      [begin, ev({ type: 'error' })],
      1,
      'the provider sent an error event: error: ',
    ],
    [
      'a start without an index',
      [begin, ev({ type: 'content_block_start', index: '0', content_block: { type: 'text' } })],
      1,
      'content_block_start has no numeric index',
    ],
    [
      'a start twice',
      [begin, start(0, { type: 'text' }), start(0, { type: 'text' })],
      2,
      'content block 0 started twice',
    ],
    [
      'a start without a content block',
      [begin, ev({ type: 'content_block_start', index: 4 })],
      1,
      'content_block_start 4 has no content_block with a type',
    ],
    [
      'a start whose block has no type',
      [begin, start(4, { text: '' })],
      1,
      'content_block_start 4 has no content_block with a type',
    ],
    [
      'a delta after the stop',
      [begin, start(0, { type: 'text' }), stop(0), delta(0, { type: 'text_delta', text: 'late' })],
      3,
      'content_block_delta for content block 0, which was already stopped',
    ],
    [
      'a stop twice',
      [begin, start(0, { type: 'text' }), stop(0), stop(0)],
      3,
      'content_block_stop for content block 0, which was already stopped',
    ],
    [
      'a stop for a block never started',
      [begin, stop(2)],
      1,
      'content_block_stop for content block 2, which was never started',
    ],
    [
      'a thinking_delta on a text block',
      [begin, start(0, { type: 'text' }), delta(0, { type: 'thinking_delta', thinking: 'x' })],
      2,
      'thinking_delta for content block 0, which is a text block, not thinking',
    ],
    [
      'a text_delta on a thinking block',
      [begin, start(1, { type: 'thinking' }), delta(1, { type: 'text_delta', text: 'x' })],
      2,
      'text_delta for content block 1, which is a thinking block, not text',
    ],
    [
      'a text_delta on a block with an empty type',
      [begin, start(0, { type: '' }), delta(0, { type: 'text_delta', text: 'x' })],
      2,
      'text_delta for content block 0, which is a untyped block, not text',
    ],
    [
      'input on a thinking block',
      [begin, start(0, { type: 'thinking' }), delta(0, { type: 'input_json_delta', partial_json: '{}' })],
      2,
      'input_json_delta for content block 0, which is a thinking block, not tool_use',
    ],
    [
      'input on a redacted block',
      [
        begin,
        start(0, { type: 'redacted_thinking', data: 'b' }),
        delta(0, { type: 'input_json_delta', partial_json: '{}' }),
      ],
      2,
      'input_json_delta for content block 0, which is a redacted_thinking block, not tool_use',
    ],
    [
      'input on a text block',
      [begin, start(0, { type: 'text' }), delta(0, { type: 'input_json_delta', partial_json: '{}' })],
      2,
      'input_json_delta for content block 0, which is a text block, not tool_use',
    ],
    [
      'a citation on a thinking block',
      [begin, start(0, { type: 'thinking' }), delta(0, { type: 'citations_delta', citation: {} })],
      2,
      'citations_delta for content block 0, which is a thinking block, not text',
    ],
    [
      'a citations_delta without a citation',
      [begin, start(0, { type: 'text' }), delta(0, { type: 'citations_delta', citation: 'x' })],
      2,
      'citations_delta in content block 0 has no citation object',
    ],
    [
      'a delta without a type',
      [begin, start(0, { type: 'text' }), delta(0, { text: 'x' })],
      2,
      'a delta without a type in content block 0',
    ],
    [
      'a delta event without a delta',
      [begin, start(3, { type: 'text' }), ev({ type: 'content_block_delta', index: 3 })],
      2,
      'a delta without a type in content block 3',
    ],
    [
      'a thinking block stopped unsigned',
      [begin, start(0, { type: 'thinking', thinking: 'x', signature: '' }), stop(0)],
      2,
      'thinking block 0 stopped without a signature; it cannot be replayed and is not kept',
    ],
    [
      'tool input that is not JSON',
      [
        begin,
        start(1, { type: 'tool_use', id: 't', name: 'weather' }),
        delta(1, { type: 'input_json_delta', partial_json: '{"city": "Os' }),
        stop(1),
      ],
      3,
      'tool_use block 1 (weather) stopped with input that is not valid JSON',
    ],
  ];

  it.each(cases)('%s', (_name, events, index, problem) => {
    const error = failure(events);
    expect(error.eventIndex).toBe(index);
    expect(error.problem).toBe(problem);
  });

  it('names the event index of a signature_delta on a redacted block and keeps nothing signed', () => {
    const error = failure([
      begin,
      start(0, { type: 'redacted_thinking', data: 'b' }),
      delta(0, { type: 'signature_delta', signature: 's' }),
    ]);
    expect(error.problem).toBe('signature_delta for content block 0, which is a redacted_thinking block, not thinking');
    expect(error.partial.message.reasoning_details).toBeUndefined();
  });

  it('stops reading at the first fault: later events change nothing', () => {
    const error = failure([
      begin,
      start(0, { type: 'text', text: 'kept' }),
      stop(0),
      ev({ type: 'error', error: { type: 'api_error', message: 'Internal' } }),
      start(1, { type: 'text', text: 'not kept' }),
      stop(1),
      end,
    ]);
    expect(error.eventIndex).toBe(3);
    expect(error.problem).toBe('the provider sent an error event: api_error: Internal');
    expect(error.partial.message.content).toBe('kept');
  });
});

describe('Anthropic stream: unknown deltas and events', () => {
  it('skips a block that held an unknown delta, with a note for the recorder and one in the answer', () => {
    const acc = feed([
      begin,
      start(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'kept' }),
      stop(0),
      start(1, { type: 'text', text: '' }),
      delta(1, { type: 'text_delta', text: 'half' }),
      delta(1, { type: 'sparkle_delta', sparkle: 1 }),
      stop(1),
      ev({ type: 'brand_new_event' }),
      end,
    ]);
    expect(acc.notes).toEqual([
      'skipped unknown delta type "sparkle_delta" in content block 1 (text); the block is not kept',
      'skipped unknown event type "brand_new_event"',
    ]);
    const answer = acc.answer(true);
    expect(answer.message.content).toBe('kept');
    expect(answer.notes).toEqual(['content block 1 (text) was skipped: it held a delta this reader does not know']);
  });

  it('adds no notes to an answer with no skipped block', () => {
    const answer = readStreamEvents(new AnthropicStreamAccumulator(), [begin, ...textBlock, end]);
    expect(answer.notes).toBeUndefined();
  });
});
