import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { GeminiAccumulator, readGeminiStream } from './stream-carriers.js';

/**
 * The Gemini stream's joining rules (Gemini 3 signs the last piece, 2.5 the first; thought and
 * visible text never join; a second signature starts a new part) and its faults, on pieces the
 * renderer-driven property test never produces.
 */

/** `index: null` leaves the candidate's index out (a default parameter would turn undefined into 0). */
const event = (parts: unknown[], finishReason?: string, index: number | null = 0): SseEvent => ({
  data: JSON.stringify({
    candidates: [
      {
        content: { role: 'model', parts },
        ...(finishReason ? { finishReason } : {}),
        ...(index === null ? {} : { index }),
      },
    ],
  }),
});

function problem(events: SseEvent[]): string {
  try {
    readGeminiStream(events);
  } catch (error) {
    if (error instanceof StreamCarrierError) return error.problem;
    throw error;
  }
  throw new Error('expected the stream to break');
}

describe('gemini stream joining', () => {
  it('keeps the first signature of a Gemini 2.5 stream on the joined part', () => {
    const answer = readGeminiStream([
      event([{ text: 'Sure, ', thoughtSignature: 'FIRST' }]),
      event([{ text: 'done.' }], 'STOP'),
    ]);
    expect(answer.message.content).toBe('Sure, done.');
    expect(answer.carriers.native?.fields).toStrictEqual({
      parts: [{ kind: 'text', chars: 11, thoughtSignature: 'FIRST' }],
    });
  });

  it('starts a new part at a second signature, and never joins thought with visible text', () => {
    const answer = readGeminiStream([
      event([{ text: 'think ', thought: true }]),
      event([{ text: 'more', thought: true, thoughtSignature: 'T1' }]),
      event([{ text: 'again', thought: true, thoughtSignature: 'T2' }]),
      event([{ text: 'Answer' }], 'STOP'),
    ]);
    expect(answer.carriers.native?.fields).toStrictEqual({
      parts: [
        { kind: 'thought', chars: 10, thoughtSignature: 'T1' },
        { kind: 'thought', chars: 5, thoughtSignature: 'T2' },
        { kind: 'text', chars: 6 },
      ],
    });
    expect(answer.message.content).toBe('Answer');
  });

  it('drops an unsigned empty text piece, and never joins text into a function call', () => {
    const answer = readGeminiStream([
      event([{ functionCall: { name: 'ls', args: {} }, thoughtSignature: 'S' }]),
      event([{ text: '' }]),
      event([{ text: 'after' }], 'STOP'),
    ]);
    expect(answer.message.tool_calls).toHaveLength(1);
    expect(answer.message.content).toBe('after');
    expect(answer.carriers.native?.fields).toStrictEqual({
      parts: [
        { kind: 'functionCall', call: 0, thoughtSignature: 'S' },
        { kind: 'text', chars: 5 },
      ],
    });
  });

  it('reads candidate 0 only (an index-less candidate counts as 0) and skips chunks without candidates', () => {
    const answer = readGeminiStream([
      event([{ text: 'other' }], undefined, 1),
      { data: JSON.stringify({ usageMetadata: { totalTokenCount: 3 } }) },
      event([{ text: 'mine' }], 'STOP', null),
    ]);
    expect(answer.message.content).toBe('mine');
  });

  it('is finished only by a finishReason', () => {
    const accumulator = new GeminiAccumulator();
    accumulator.accept(event([{ text: 'a' }]));
    expect(accumulator.finished).toBe(false);
    accumulator.accept({
      event: 'message',
      data: JSON.stringify({ candidates: [{ finishReason: 'MAX_TOKENS', index: 0 }] }),
    });
    expect(accumulator.finished).toBe(true);
  });
});

describe('gemini stream faults', () => {
  it('names what is wrong with a bad event', () => {
    expect(problem([{ data: '[1]' }])).toBe('expected a GenerateContentResponse object');
    expect(problem([{ data: JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted' } }) }])).toBe(
      'the provider sent an error in the stream: Resource has been exhausted',
    );
    expect(problem([{ data: JSON.stringify({ error: { code: 500 } }) }])).toBe(
      'the provider sent an error in the stream: {"code":500}',
    );
    expect(problem([{ data: JSON.stringify({ candidates: {} }) }])).toBe('candidates is not an array');
    expect(problem([{ data: JSON.stringify({ candidates: [{ index: 0, content: { parts: {} } }] }) }])).toBe(
      'content.parts is not an array',
    );
    expect(problem([event(['text'])])).toBe('a part is not an object');
  });
});
