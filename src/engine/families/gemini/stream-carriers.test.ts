import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { feedSplit } from '../split-stream.js';
import { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { fromGeminiResponse } from './from-response.js';
import { renderGeminiAnswer } from '../../../provider/families/gemini/render-answer.js';
import { geminiStreamCarriers, readGeminiStream } from './stream-carriers.js';
import { aScriptedAnswer } from '../../../../test/helpers/scripted-answer-arbitraries.test-helper.js';

const geminiSpec = {
  id: 'gemini',
  endpoint: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', path: '/models/{model}:generateContent' },
  target: { provider: 'gemini', model: 'gemini-3-pro-preview' },
} as unknown as ProviderSpec;

const scripted = aScriptedAnswer({ objectArguments: true });

const event = (parts: unknown[], finishReason?: string): SseEvent => ({
  data: JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
  }),
});

describe('gemini stream carriers', () => {
  test('a rendered stream gives what the rendered body gives, however its bytes are split', () => {
    fc.assert(
      fc.property(scripted, fc.nat({ max: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (answer, call, cuts) => {
        const { body, stream } = renderGeminiAnswer(answer, { spec: geminiSpec, call, scenario: 'prop' });
        const streamed = feedSplit(geminiStreamCarriers(), formatSse(stream), cuts).end();
        expect(streamed).toEqual(fromGeminiResponse(body));
      }),
    );
  });

  it('joins text pieces and keeps the signature of a final empty piece on that part', () => {
    const answer = readGeminiStream([
      event([{ text: 'Sure, ' }]),
      event([{ text: 'here it is.' }]),
      event([{ text: '', thoughtSignature: 'SIG1' }], 'STOP'),
    ]);
    expect(answer.message.content).toBe('Sure, here it is.');
    expect(answer.carriers.native).toEqual({
      route: 'gemini',
      fields: { parts: [{ kind: 'text', chars: 17, thoughtSignature: 'SIG1' }] },
    });
    expect(answer.finishReason).toBe('stop');
  });

  it('keeps a signature sent on a separate thought part, at its own position', () => {
    const answer = readGeminiStream([
      event([{ text: 'pondering', thought: true }]),
      event([{ thought: true, thoughtSignature: 'TS' }]),
      event([{ functionCall: { name: 'ls', args: { dir: '.' } } }], 'STOP'),
    ]);
    expect(answer.carriers.reasoning).toBe('pondering');
    expect(answer.carriers.native?.fields).toEqual({
      parts: [
        { kind: 'thought', chars: 9, thoughtSignature: 'TS' },
        { kind: 'functionCall', call: 0 },
      ],
    });
    expect(answer.finishReason).toBe('tool-calls');
  });

  it('drops empty and non-string signatures', () => {
    const answer = readGeminiStream([
      event(
        [
          { functionCall: { name: 'a', args: {} }, thoughtSignature: '' },
          { functionCall: { name: 'b', args: {} }, thoughtSignature: 7 },
        ],
        'STOP',
      ),
    ]);
    expect(answer.carriers.native).toBeUndefined();
    expect(answer.message.tool_calls).toHaveLength(2);
  });

  it('files the record under the route key it was read for', () => {
    const answer = readGeminiStream([event([{ text: 'x', thoughtSignature: 'S' }], 'STOP')], {
      native: 'vertex-gemini',
    } as never);
    expect(answer.carriers.native?.route).toBe('vertex-gemini');
  });

  it('names the bad event, keeps the text, and never emits a signature from a broken stream', () => {
    const stream = geminiStreamCarriers();
    stream.feed(
      formatSse([
        event([{ text: 'Hello', thoughtSignature: 'S' }]),
        event([{ functionCall: { name: 'f', args: {} } }]),
      ]) + 'data: {"candidates": [',
    );
    let error: unknown;
    try {
      stream.end();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamCarrierError);
    const e = error as StreamCarrierError<ParsedAnswer>;
    expect(e.eventIndex).toBe(2);
    expect(e.message).toMatch(/cut off/);
    expect(e.partial.message.content).toBe('Hello');
    expect(e.partial.message.tool_calls).toHaveLength(1);
    expect(e.partial.carriers.native).toBeUndefined();
    expect(JSON.stringify(e.partial)).not.toContain('"S"');
  });

  it('rejects invalid JSON by index; skips a named event it does not know, with a note', () => {
    expect(() => readGeminiStream([event([{ text: 'a' }]), { data: 'not json' }, event([], 'STOP')])).toThrow(
      /stream event 1: invalid JSON in data line/,
    );
    const carriers = geminiStreamCarriers();
    for (const e of [{ event: 'ping', data: '{}' }, event([{ text: 'a' }], 'STOP')]) carriers.acceptEvent(e);
    expect(carriers.end().message.content).toBe('a');
    expect(carriers.notes).toEqual(['skipped an event of unknown type "ping"']);
    expect(() => readGeminiStream([event([{ text: 'a' }])])).toThrow(
      /stream event 1: the stream ended before its final event/,
    );
  });
});
