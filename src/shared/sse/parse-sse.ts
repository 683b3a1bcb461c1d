import { createParser } from 'eventsource-parser';
import type { SseEvent } from './sse-event.js';

/**
 * Incremental SSE parsing over eventsource-parser. `pending` tells whether the stream ended inside
 * an event: a cut-off stream must be reported, not silently completed.
 */
export class SseReader {
  readonly events: SseEvent[] = [];
  private buffered = '';
  private readonly parser = createParser({
    onEvent: (e) => {
      const event: SseEvent = { data: e.data };
      if (e.event !== undefined) event.event = e.event;
      if (e.id !== undefined) event.id = e.id;
      if (this.clock) event.atMs = this.clock();
      this.events.push(event);
      this.onEvent?.(event);
    },
  });

  constructor(
    private readonly onEvent?: (event: SseEvent) => void,
    private readonly clock?: () => number,
  ) {}

  feed(chunk: string): void {
    this.buffered += chunk;
    this.parser.feed(chunk);
    // A blank line closes an event; whatever follows the last one is still open.
    const lastBoundary = Math.max(this.buffered.lastIndexOf('\n\n'), this.buffered.lastIndexOf('\r\n\r\n'));
    if (lastBoundary >= 0) this.buffered = this.buffered.slice(lastBoundary).replace(/^(\r?\n)+/, '');
  }

  /** True when bytes of an unfinished event are still buffered. */
  get pending(): boolean {
    return this.buffered.split(/\r?\n/).some((line) => line.trim() !== '' && !line.startsWith(':'));
  }
}

export function parseSse(text: string): { events: SseEvent[]; truncated: boolean } {
  const reader = new SseReader();
  reader.feed(text);
  return { events: reader.events, truncated: reader.pending };
}

/** The JSON data of each event of an SSE text, in order; an event whose data is not JSON (`[DONE]`, a ping) is skipped. */
export function sseJsonData(text: string): unknown[] {
  const out: unknown[] = [];
  for (const event of parseSse(text).events) {
    try {
      out.push(JSON.parse(event.data));
    } catch {
      // not JSON: no part of an answer's content
    }
  }
  return out;
}

/** Serializes events back to wire text; `parseSse(formatSse(e)).events` equals `e` (timing aside). */
export function formatSseEvent(event: SseEvent): string {
  let out = '';
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  for (const line of event.data.split('\n')) out += `data: ${line}\n`;
  return out + '\n';
}

export function formatSse(events: SseEvent[]): string {
  return events.map(formatSseEvent).join('');
}
