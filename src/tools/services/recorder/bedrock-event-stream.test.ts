import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeEventStream,
  encodeBedrockEvent,
  encodeBedrockException,
  EventStreamDecoder,
} from './bedrock-event-stream.js';

const frames = [
  encodeBedrockEvent('messageStart', { role: 'assistant' }),
  encodeBedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Think ✓' } } }),
  encodeBedrockEvent('contentBlockDelta', {
    contentBlockIndex: 0,
    delta: { reasoningContent: { signature: 'EqQBsig==' } },
  }),
  encodeBedrockEvent('messageStop', { stopReason: 'end_turn' }),
];
const whole = Buffer.concat(frames);
const expected = [
  { event: 'messageStart', data: '{"role":"assistant"}' },
  { event: 'contentBlockDelta', data: '{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"Think ✓"}}}' },
  {
    event: 'contentBlockDelta',
    data: '{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"EqQBsig=="}}}',
  },
  { event: 'messageStop', data: '{"stopReason":"end_turn"}' },
];

describe('Bedrock event-stream framing (@smithy/eventstream-codec)', () => {
  it('decodes frames to the SSE events the Bedrock reader takes, however the bytes are cut', () => {
    expect(decodeEventStream(whole)).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 20 }), (cuts) => {
        const decoder = new EventStreamDecoder();
        const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
        const events = [];
        let at = 0;
        for (const p of [...points, whole.length]) {
          events.push(...decoder.feed(whole.subarray(at, p)));
          at = p;
        }
        expect(events).toEqual(expected);
        expect(decoder.pending).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('names an exception frame by its exception type', () => {
    expect(decodeEventStream(encodeBedrockException('throttlingException', 'Too many requests'))).toEqual([
      { event: 'throttlingException', data: '{"message":"Too many requests"}' },
    ]);
  });

  it('refuses a frame whose checksum does not match, and a body cut inside a frame', () => {
    const corrupt = Buffer.from(whole);
    corrupt[frames[0]!.length + 20]! ^= 0xff;
    expect(() => decodeEventStream(corrupt)).toThrow(/checksum/i);
    expect(() => decodeEventStream(whole.subarray(0, whole.length - 3))).toThrow(/ends inside a frame/);
  });
});
