import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { formatSse, parseSse, SseReader, sseJsonData } from './parse-sse.js';

const sseEvent = fc.record(
  {
    event: fc.stringMatching(/^[a-z_.]{1,12}$/),
    data: fc.string({ maxLength: 40 }).filter((s) => !s.includes('\r')),
  },
  { requiredKeys: ['data'] },
);

describe('parseSse', () => {
  it('reads events with types and multi-line data', () => {
    const { events, truncated } = parseSse('event: ping\ndata: a\ndata: b\n\ndata: {"x":1}\n\n');
    expect(events).toEqual([{ event: 'ping', data: 'a\nb' }, { data: '{"x":1}' }]);
    expect(truncated).toBe(false);
  });

  it('reports a stream cut off inside an event', () => {
    const { events, truncated } = parseSse('data: one\n\ndata: {"half":');
    expect(events).toEqual([{ data: 'one' }]);
    expect(truncated).toBe(true);
  });

  test('gives the same events however the bytes are split into chunks', () => {
    fc.assert(
      fc.property(fc.array(sseEvent, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (events, cuts) => {
        const text = formatSse(events);
        const reader = new SseReader();
        let at = 0;
        for (const cut of [...cuts].map((c) => c % (text.length + 1)).sort((a, b) => a - b)) {
          reader.feed(text.slice(at, cut));
          at = cut;
        }
        reader.feed(text.slice(at));
        expect(reader.events).toEqual(parseSse(text).events);
        expect(reader.events.map((e) => e.data)).toEqual(events.map((e) => e.data));
        expect(reader.pending).toBe(false);
      }),
    );
  });
});

describe('sseJsonData', () => {
  it("gives each event's JSON data in order and skips data that is not JSON", () => {
    const text = 'data: {"a":1}\n\ndata: [DONE]\n\nevent: x\ndata: [2]\n\n: ping\n\n';
    expect(sseJsonData(text)).toEqual([{ a: 1 }, [2]]);
  });
});
