import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { parseSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { streamBytes, streamWire, writeEvents } from './stream-wire.js';

const SSE = streamWire({ family: 'openai-chat' } as ProviderSpec);
const AWS = streamWire({ family: 'bedrock-converse' } as ProviderSpec);

/** Events as the renderers make them: JSON data (non-ASCII, escapes, newlines in pretty JSON), names, ids, times. */
const event: fc.Arbitrary<SseEvent> = fc.record(
  {
    event: fc.constantFrom('message_start', 'content_block_delta', 'response.output_text.delta'),
    id: fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/[\r\n]/.test(s)),
    data: fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.jsonValue().map((v) => JSON.stringify(v, null, 1)),
      fc.constant('[DONE]'),
    ),
    atMs: fc.nat(500),
  },
  { requiredKeys: ['data'] },
);

/** The bytes a paced stream writes, one write per event. */
async function pacedBytes(events: SseEvent[], wire: typeof SSE): Promise<Buffer> {
  const writes: Uint8Array[] = [];
  await writeEvents({ write: (chunk) => writes.push(chunk) }, events, 1e-9, wire);
  return Buffer.concat(writes);
}

describe('streamBytes', () => {
  test('is the stream a paced answer writes event by event, on SSE and on AWS binary frames', () =>
    fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 12 }), async (events) => {
        for (const wire of [SSE, AWS])
          expect(streamBytes(events, wire).equals(await pacedBytes(events, wire))).toBe(true);
      }),
    ));

  test('reads back as the events it was made from', () =>
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (events) => {
        const read = parseSse(streamBytes(events, SSE).toString('utf8')).events;
        expect(read.map(({ event: e, id, data }) => ({ event: e, id, data }))).toEqual(
          events.map(({ event: e, id, data }) => ({ event: e, id, data })),
        );
      }),
    ));

  it('never hands one answer the bytes kept for another, however alike', () => {
    const a: SseEvent[] = [{ data: '{"delta":"a"}' }, { data: '[DONE]' }];
    const b: SseEvent[] = [{ data: '{"delta":"b"}' }, { data: '[DONE]' }];
    const first = streamBytes(a, SSE);
    expect(streamBytes(a, SSE)).toBe(first); // kept per answer
    expect(streamBytes(b, SSE).toString()).toBe('data: {"delta":"b"}\n\ndata: [DONE]\n\n');
    // The same events on another wire are framed for that wire.
    expect(streamBytes(a, AWS).equals(first)).toBe(false);
  });
});
