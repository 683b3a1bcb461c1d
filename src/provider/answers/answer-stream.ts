import { setImmediate as nextTurn } from 'node:timers/promises';
import { formatSseEvent } from '../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';

/** How one stored event becomes bytes on the wire: SSE text, or a binary frame (Bedrock). */
export type EventEncoder = (event: SseEvent) => Uint8Array;

const encoder = new TextEncoder();
export const encodeSseEvent: EventEncoder = ({ atMs: _atMs, ...wire }) => encoder.encode(formatSseEvent(wire));

/**
 * How long to wait before each event: its recorded `atMs` gap scaled by `pace`; undefined at pace
 * 0 (or no gap), where the sender only yields a turn of the event loop (setImmediate). A timer
 * fires no sooner than 1 ms, which made a nine-event stream cost about 11 ms at pace 0.
 */
export function eventDelays(events: readonly SseEvent[], pace: number): Array<number | undefined> {
  let last = 0;
  return events.map((event) => {
    const at = event.atMs ?? last;
    const wait = Math.max(0, (at - last) * pace);
    last = at;
    return wait > 0 ? wait : undefined;
  });
}

export const pause = (ms: number | undefined): Promise<unknown> =>
  ms === undefined ? nextTurn() : new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Replays stored events as a byte stream, one enqueue per event, paced by their recorded `atMs`
 * (scaled by `pace`; at 0 they follow each other a turn of the event loop apart), so clients meet
 * real chunk boundaries. `encode` picks the wire: SSE by default.
 */
export function eventBody(
  events: SseEvent[],
  pace = 1,
  encode: EventEncoder = encodeSseEvent,
): ReadableStream<Uint8Array> {
  const delays = eventDelays(events, pace);
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const event = events[i];
      if (!event) {
        controller.close();
        return;
      }
      await pause(delays[i++]);
      controller.enqueue(encode(event));
    },
  });
}

/** The events as one SSE text, unpaced: what reading sseBody's stream to its end gives. */
export const sseText = (events: readonly SseEvent[]): string =>
  events.map(({ atMs: _atMs, ...wire }) => formatSseEvent(wire)).join('');

/** The events as SSE (every family but Bedrock on the wire; every family in fixtures and in-process mocks). */
export const sseBody = (events: SseEvent[], pace = 1): ReadableStream<Uint8Array> => eventBody(events, pace);
