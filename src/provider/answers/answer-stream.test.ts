import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventDelays, sseBody } from './answer-stream.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';

const events: SseEvent[] = Array.from({ length: 9 }, (_, i) => ({ event: 'e', data: String(i), atMs: i * 15 }));

async function drain(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

describe('answer-stream pacing', () => {
  afterEach(() => vi.restoreAllMocks());

  it('at pace 0 sets no timer: a timer fires no sooner than 1 ms, per event', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const text = await drain(sseBody(events, 0));
    expect(text.match(/^data: /gm)).toHaveLength(9);
    expect(timers).not.toHaveBeenCalled();
  });

  it('at pace 1 waits each recorded gap, scaled', () => {
    expect(eventDelays(events, 1)).toEqual([undefined, ...Array(8).fill(15)]);
    expect(eventDelays(events, 2).slice(1, 3)).toEqual([30, 30]);
    expect(eventDelays(events, 0)).toEqual(Array(9).fill(undefined));
  });
});
