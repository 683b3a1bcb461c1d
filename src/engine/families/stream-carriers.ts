import { StreamCarrierError } from '../../shared/errors/stream-carrier-error.js';
import { SseReader } from '../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { ParsedAnswer } from './parsed-answer.js';
import { ProviderAnswerError } from '../../shared/errors/provider-answer-error.js';

/**
 * One wire family's reading of its stream events. The driver (`StreamCarriers`) owns the bytes,
 * event numbering and faults, so every family reports a broken stream the same way.
 */
export interface StreamAccumulator {
  /** Reads one event; throws (any Error) when the event cannot be read. */
  accept(event: SseEvent): void;
  /** True once the family's terminal event arrived (`[DONE]`, `response.completed`, a finishReason). */
  readonly finished: boolean;
  /**
   * The answer so far. `whole` is false when the stream broke: then nothing signed, encrypted or
   * opaque may be in it, since a half-received blob replayed as if whole is exactly the failure
   * the seed describes (OpenRouterTeam/ai-sdk-provider#423).
   */
  answer(whole: boolean): ParsedAnswer;
  /** Well-formed events this reader does not know and skipped, each named (never a failure). */
  readonly notes?: readonly string[];
}

/**
 * Accumulates carriers from a streamed answer, fed raw SSE text in any chunking (`feed`) or
 * already-parsed events (`acceptEvent`, as fixtures store them). The first bad event stops
 * accumulation; `end()` then throws a StreamCarrierError naming its index (0-based).
 */
export class StreamCarriers {
  private readonly reader: SseReader;
  private count = 0;
  private fault: { index: number; problem: string } | undefined;

  constructor(private readonly accumulator: StreamAccumulator) {
    this.reader = new SseReader((event) => this.acceptEvent(event));
  }

  feed(chunk: string): void {
    this.reader.feed(chunk);
  }

  acceptEvent(event: SseEvent): void {
    const index = this.count++;
    if (this.fault) return;
    try {
      this.accumulator.accept(event);
    } catch (error) {
      this.fault = { index, problem: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Unfamiliar but well-formed events the family skipped, for the recorder to show. */
  get notes(): readonly string[] {
    return this.accumulator.notes ?? [];
  }

  /** Events seen so far (the index the next event will get). */
  get eventCount(): number {
    return this.count;
  }

  end(): ParsedAnswer {
    if (this.fault) throw new StreamCarrierError(this.fault.index, this.fault.problem, this.accumulator.answer(false));
    if (this.reader.pending) {
      throw new StreamCarrierError(
        this.count,
        'the stream was cut off inside this event',
        this.accumulator.answer(false),
      );
    }
    if (!this.accumulator.finished) {
      throw new StreamCarrierError(
        this.count,
        'the stream ended before its final event',
        this.accumulator.answer(false),
      );
    }
    try {
      return this.accumulator.answer(true);
    } catch (error) {
      // Events each read, yet no whole answer from them (an item the final assembly refuses):
      // still a broken stream, reported like every other, with what readable text there is.
      let partial: ParsedAnswer;
      try {
        partial = this.accumulator.answer(false);
      } catch {
        partial = { message: { role: 'assistant', content: null }, carriers: {}, finishReason: null };
      }
      throw new StreamCarrierError(this.count, error instanceof Error ? error.message : String(error), partial);
    }
  }
}

/** Parses a data line as JSON, with an error that says what the line held. */
export function parseEventJson(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch {
    const shown = event.data.length > 60 ? `${event.data.slice(0, 60)}…` : event.data;
    throw new ProviderAnswerError(`invalid JSON in data line: ${JSON.stringify(shown)}`);
  }
}

/** Reads a whole stream given as parsed events (fixtures) through a fresh accumulator. */
export function readStreamEvents(accumulator: StreamAccumulator, events: readonly SseEvent[]): ParsedAnswer {
  const carriers = new StreamCarriers(accumulator);
  for (const event of events) carriers.acceptEvent(event);
  return carriers.end();
}
