import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { ParsedAnswer } from './family.js';
import { parseEventJson, readStreamEvents, StreamCarriers, type StreamAccumulator } from './stream-carriers.js';
import { StreamCarrierError } from '../../shared/errors/stream-carrier-error.js';

/**
 * The stream driver owns faults for every family: which event broke, and that a broken stream's
 * partial answer is asked for without signed or opaque data (`answer(false)`). The family tests
 * reach it through real accumulators; Stryker found its fallbacks untested (an answer that cannot
 * be assembled, an accumulator without notes, long bad data lines). This fake accumulator records
 * how it is asked.
 */
class FakeAccumulator implements StreamAccumulator {
  finished = false;
  readonly asked: boolean[] = [];
  constructor(
    private readonly options: { finishOn?: string; failWhole?: string; failPartial?: boolean; badEvent?: string } = {},
  ) {}

  accept(event: SseEvent): void {
    if (event.data === this.options.badEvent) throw new Error(`cannot read ${event.data}`);
    if (event.data === this.options.finishOn) this.finished = true;
  }

  answer(whole: boolean): ParsedAnswer {
    this.asked.push(whole);
    if (whole && this.options.failWhole) throw new Error(this.options.failWhole);
    if (!whole && this.options.failPartial) throw new Error('no partial either');
    return { message: { role: 'assistant', content: whole ? 'whole' : 'partial' }, carriers: {}, finishReason: 'stop' };
  }
}

function failure(run: () => unknown): StreamCarrierError<ParsedAnswer> {
  try {
    run();
  } catch (error) {
    if (error instanceof StreamCarrierError) return error as StreamCarrierError<ParsedAnswer>;
    throw error;
  }
  throw new Error('expected a StreamCarrierError');
}

describe('StreamCarriers', () => {
  it('counts events and has no notes when the family keeps none', () => {
    const carriers = new StreamCarriers(new FakeAccumulator({ finishOn: 'end' }));
    expect(carriers.eventCount).toBe(0);
    carriers.feed('data: a\n\ndata: end\n\n');
    expect(carriers.eventCount).toBe(2);
    expect(carriers.notes).toStrictEqual([]);
    expect(carriers.end().message.content).toBe('whole');
  });

  it('names the first bad event, stops reading after it, and keeps only the partial answer', () => {
    const accumulator = new FakeAccumulator({ finishOn: 'end', badEvent: 'bad' });
    const error = failure(() => readStreamEvents(accumulator, [{ data: 'a' }, { data: 'bad' }, { data: 'end' }]));
    expect(error.name).toBe('StreamCarrierError');
    expect(error.eventIndex).toBe(1);
    expect(error.message).toBe('stream event 1: cannot read bad');
    expect(error.partial.message.content).toBe('partial');
    expect(accumulator.asked).toStrictEqual([false]);
    // The event after the fault was never read: the accumulator did not finish.
    expect(accumulator.finished).toBe(false);
  });

  it('asks a stream that ended early only for its partial answer', () => {
    const accumulator = new FakeAccumulator({ finishOn: 'end' });
    const error = failure(() => readStreamEvents(accumulator, [{ data: 'a' }]));
    expect(error.message).toBe('stream event 1: the stream ended before its final event');
    expect(error.partial.message.content).toBe('partial');
    expect(accumulator.asked).toStrictEqual([false]);
  });

  it('reports an answer the family cannot assemble as a broken stream, with the partial answer', () => {
    const accumulator = new FakeAccumulator({ finishOn: 'end', failWhole: 'an item the final assembly refuses' });
    const error = failure(() => readStreamEvents(accumulator, [{ data: 'a' }, { data: 'end' }]));
    expect(error.eventIndex).toBe(2);
    expect(error.message).toBe('stream event 2: an item the final assembly refuses');
    expect(error.partial.message.content).toBe('partial');
    expect(accumulator.asked).toStrictEqual([true, false]);
  });

  it('falls back to an empty answer when not even a partial one can be made', () => {
    const error = failure(() =>
      readStreamEvents(new FakeAccumulator({ finishOn: 'end', failWhole: 'broken', failPartial: true }), [
        { data: 'end' },
      ]),
    );
    expect(error.partial).toStrictEqual({
      message: { role: 'assistant', content: null },
      carriers: {},
      finishReason: null,
    });
  });
});

describe('parseEventJson', () => {
  it('parses a data line', () => {
    expect(parseEventJson({ data: '{"a":1}' })).toStrictEqual({ a: 1 });
  });

  it('shows a bad line whole up to 60 characters, and its first 60 then an ellipsis beyond', () => {
    const sixty = '{' + 'x'.repeat(59);
    expect(() => parseEventJson({ data: sixty })).toThrow(`invalid JSON in data line: ${JSON.stringify(sixty)}`);
    expect(() => parseEventJson({ data: sixty + 'yz' })).toThrow(
      `invalid JSON in data line: ${JSON.stringify(sixty + '…')}`,
    );
  });
});
