import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it } from 'vitest';
import type { ReasoningDetail } from '../../../shared/history/history.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { mergeReasoningDetail, OpenAIChatAccumulator, readOpenAIChatStream } from './stream-carriers.js';

/**
 * The chat accumulator's property tests compare a stream with the body it was cut from, so they
 * only produce well-formed, in-order deltas. These cases pin the joining rules and the faults on
 * deltas a real gateway sends (pieces without an index, a signature-only piece, continuation
 * tool-call pieces, junk), whatever the renderers produce.
 */

/** `index: null` leaves the choice's index out (a default parameter would turn undefined into 0). */
const chunk = (delta: unknown, finish: string | null = null, index: number | null = 0): SseEvent => ({
  data: JSON.stringify({ choices: [{ ...(index === null ? {} : { index }), delta, finish_reason: finish }] }),
});
const DONE: SseEvent = { data: '[DONE]' };

function broken(events: SseEvent[]): StreamCarrierError<ParsedAnswer> {
  try {
    readOpenAIChatStream(events);
  } catch (error) {
    if (error instanceof StreamCarrierError) return error as StreamCarrierError<ParsedAnswer>;
    throw error;
  }
  throw new Error('expected the stream to break');
}

describe('mergeReasoningDetail', () => {
  it('joins pieces with the same index, text, summary and data alike, and keeps the first of other keys', () => {
    const items: ReasoningDetail[] = [];
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'a', index: 0, format: 'f1' });
    mergeReasoningDetail(items, { type: 'reasoning.summary', summary: 's', index: 1 });
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'b', index: 0, format: 'f2', id: 'r1' });
    mergeReasoningDetail(items, { type: 'reasoning.summary', summary: 't', index: 1, text: null });
    mergeReasoningDetail(items, { type: 'reasoning.encrypted', data: 'xx', index: 2 });
    mergeReasoningDetail(items, { type: 'reasoning.encrypted', data: 'yy', index: 2 });
    expect(items).toStrictEqual([
      { type: 'reasoning.text', text: 'ab', index: 0, format: 'f1', id: 'r1' },
      { type: 'reasoning.summary', summary: 'st', index: 1 },
      { type: 'reasoning.encrypted', data: 'xxyy', index: 2 },
    ]);
  });

  it('keeps the last non-empty signature, including one sent alone at the end', () => {
    const items: ReasoningDetail[] = [];
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'a', index: 0, signature: 'old' });
    mergeReasoningDetail(items, { type: 'reasoning.text', index: 0, signature: '' });
    expect(items[0]!.signature).toBe('old');
    mergeReasoningDetail(items, { type: 'reasoning.text', index: 0, signature: 'final' });
    expect(items).toStrictEqual([{ type: 'reasoning.text', text: 'a', index: 0, signature: 'final' }]);
  });

  it('joins an index-less piece to the last index-less item of its type, and starts a new item otherwise', () => {
    const items: ReasoningDetail[] = [];
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'a' });
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'b' });
    mergeReasoningDetail(items, { type: 'reasoning.summary', summary: 's' });
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'c', index: 4 });
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'd' });
    expect(items).toStrictEqual([
      { type: 'reasoning.text', text: 'ab' },
      { type: 'reasoning.summary', summary: 's' },
      { type: 'reasoning.text', text: 'c', index: 4 },
      { type: 'reasoning.text', text: 'd' },
    ]);
  });

  it('starts text on an item that had none', () => {
    const items: ReasoningDetail[] = [];
    mergeReasoningDetail(items, { type: 'reasoning.text', index: 0, signature: 's' });
    mergeReasoningDetail(items, { type: 'reasoning.text', index: 0, text: 'late' });
    expect(items).toStrictEqual([{ type: 'reasoning.text', index: 0, signature: 's', text: 'late' }]);
  });
});

describe('OpenAIChatAccumulator', () => {
  it('assembles tool calls from continuation pieces, in index order, with a stand-in id when none came', () => {
    const answer = readOpenAIChatStream([
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'second', arguments: '{"x"' } }] }),
      chunk({ tool_calls: [{ function: { arguments: ':1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: '', function: { name: 'fir' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'st', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
      DONE,
    ]);
    expect(answer.message.tool_calls).toStrictEqual([
      { id: 'call_0', type: 'function', function: { name: 'first', arguments: '{}' } },
      { id: 'call_b', type: 'function', function: { name: 'second', arguments: '{"x":1}' } },
    ]);
    expect(answer.finishReason).toBe('tool-calls');
  });

  it('gives an index-less first tool-call piece index 0', () => {
    const answer = readOpenAIChatStream([
      chunk({ tool_calls: [{ id: 'c', function: { name: 'f', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(answer.message.tool_calls).toStrictEqual([
      { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } },
    ]);
  });

  it('reads choice 0 only (an index-less choice counts as 0), and skips usage-only chunks', () => {
    const answer = readOpenAIChatStream([
      chunk({ content: 'other choice' }, null, 1),
      chunk({ content: 'mine' }, null, null),
      { data: JSON.stringify({ choices: [], usage: { total_tokens: 3 } }) },
      chunk(null),
      chunk({ content: '!' }, 'stop'),
    ]);
    expect(answer.message).toStrictEqual({ role: 'assistant', content: 'mine!' });
    expect(answer.finishReason).toBe('stop');
  });

  it('is finished by a finish_reason alone or by [DONE] alone, not by a null finish_reason', () => {
    const accumulator = new OpenAIChatAccumulator();
    accumulator.accept(chunk({ content: 'a' }, null));
    expect(accumulator.finished).toBe(false);
    accumulator.accept({ event: 'message', data: ' [DONE] ' });
    expect(accumulator.finished).toBe(true);
    expect(accumulator.answer(true).finishReason).toBeNull();
  });

  it('reads a final chunk without a delta or without a finish_reason key', () => {
    const accumulator = new OpenAIChatAccumulator();
    accumulator.accept({ data: JSON.stringify({ choices: [{ index: 0, delta: { content: 'a' } }] }) });
    expect(accumulator.finished).toBe(false);
    accumulator.accept({ data: JSON.stringify({ choices: [{ index: 0, finish_reason: 'stop' }] }) });
    expect(accumulator.finished).toBe(true);
    expect(accumulator.answer(true).message.content).toBe('a');
  });

  it('joins an index-less tool-call piece to the latest call, and numbers a first index-less call 0', () => {
    const answer = readOpenAIChatStream([
      chunk({ tool_calls: [{ function: { name: 'a', arguments: '{' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'b', arguments: '{' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(answer.message.tool_calls?.map((c) => [c.id, c.function.arguments])).toStrictEqual([
      ['call_0', '{'],
      ['call_b', '{}'],
    ]);
  });

  it('fills a key the first piece sent as null from a later piece', () => {
    const items: ReasoningDetail[] = [];
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'a', index: 0, id: null });
    mergeReasoningDetail(items, { type: 'reasoning.text', text: 'b', index: 0, id: 'rs_1' });
    expect(items).toStrictEqual([{ type: 'reasoning.text', text: 'ab', index: 0, id: 'rs_1' }]);
  });

  it('answers an empty stream text with null content and keeps both readable carriers apart', () => {
    const answer = readOpenAIChatStream([
      chunk({ content: '', reasoning_content: 'r', reasoning: 'q' }),
      chunk({ reasoning: 'q' }),
      DONE,
    ]);
    expect(answer.message).toStrictEqual({ role: 'assistant', content: null, reasoning_content: 'r', reasoning: 'qq' });
    expect(answer.carriers).toStrictEqual({ reasoning_content: 'r', reasoning: 'qq' });
  });

  it('keeps an empty reasoning_details list of a whole stream, and drops signed, encrypted and redacted items from a broken one', () => {
    expect(readOpenAIChatStream([chunk({ reasoning_details: [] }), DONE]).carriers).toStrictEqual({
      reasoning_details: [],
    });
    const error = broken([
      chunk({
        reasoning_details: [
          { type: 'reasoning.text', text: 'plain', index: 0 },
          { type: 'reasoning.text', text: 'signed', signature: 'sig', index: 1 },
          { type: 'reasoning.encrypted', data: 'enc', index: 2 },
          { type: 'redacted_thinking', data: 'red', index: 3 },
        ],
      }),
    ]);
    expect(error.partial.carriers.reasoning_details).toStrictEqual([
      { type: 'reasoning.text', text: 'plain', index: 0 },
    ]);
    const opaqueOnly = broken([chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'enc' }] })]);
    expect('reasoning_details' in opaqueOnly.partial.carriers).toBe(false);
  });

  it('names what is wrong with a bad event', () => {
    const problem = (events: SseEvent[]) => broken(events).problem;
    expect(problem([DONE, chunk({ content: 'late' })])).toBe('data after [DONE]');
    expect(problem([{ data: '"text"' }])).toBe('expected a chat.completion.chunk object');
    expect(problem([{ data: '{"object":"chat.completion.chunk"}' }])).toBe(
      'expected a chat.completion.chunk with a choices array',
    );
    expect(problem([chunk('text')])).toBe('choices[0].delta is not an object');
    expect(problem([chunk({ reasoning_details: [{ text: 'no type' }] })])).toBe(
      'a reasoning_details piece has no type',
    );
    expect(problem([chunk({ reasoning_details: ['x'] })])).toBe('a reasoning_details piece has no type');
    expect(problem([chunk({ tool_calls: ['x'] })])).toBe('a tool_calls piece is not an object');
    expect(problem([{ data: JSON.stringify({ error: 'overloaded' }) }])).toBe(
      'the provider sent an error in the stream: "overloaded"',
    );
    expect(problem([{ data: JSON.stringify({ error: { code: 529 } }) }])).toBe(
      'the provider sent an error in the stream: {"code":529}',
    );
  });
});
