import { formatSseEvent } from '../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';

/**
 * Replays SSE events as a byte stream, one enqueue per event, paced by their recorded `atMs`
 * (scaled by `pace`; 0 still yields between events), so clients meet real chunk boundaries.
 */
export function sseBody(events: SseEvent[], pace = 1): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  let last = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const event = events[i++];
      if (!event) {
        controller.close();
        return;
      }
      const at = event.atMs ?? last;
      const wait = Math.max(0, (at - last) * pace);
      last = at;
      await new Promise((resolve) => setTimeout(resolve, wait));
      const { atMs: _atMs, ...wire } = event;
      controller.enqueue(encoder.encode(formatSseEvent(wire)));
    },
  });
}
