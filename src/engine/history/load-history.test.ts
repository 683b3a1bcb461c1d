import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors/input-error.js';
import { checkHistory } from './load-history.js';
import { NATIVE_RECORD_SHAPES } from './native-record-shapes.js';

const withNative = (route: string, fields: unknown) => ({
  messages: [
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: 'x',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      native: { route, fields },
    },
  ],
});
const refusal = (value: unknown) => {
  try {
    checkHistory(value, 'h.json');
  } catch (err) {
    return err as InputError;
  }
  return undefined;
};

describe('checkHistory on native records', () => {
  it("accepts each bundled route key's shape, the flat Gemini form, and any record under a key it does not know", () => {
    for (const [route, fields] of [
      [
        'gemini',
        {
          parts: [
            { kind: 'text', chars: 1 },
            { kind: 'functionCall', call: 0, thoughtSignature: 'S' },
            { kind: 'part', part: { executableCode: { code: 'x' } } },
          ],
        },
      ],
      ['vertex-gemini', { thoughtSignature: 'S' }],
      ['copilot', { reasoning_opaque: 'O', reasoning_text: true }],
      ['copilot', { thought_signature: 'T', thought_signature_call: 0 }],
      ['openai-responses', { function_call_ids: { c1: 'fc_1' } }],
      [
        'openai-responses',
        {
          items: [
            { kind: 'reasoning', id: 'rs_1' },
            { kind: 'item', item: { type: 'web_search_call' } },
            { kind: 'message', parts: [{ chars: 3, annotations: [] }] },
            { kind: 'call' },
          ],
        },
      ],
      ['some-other-tool', { anything: [1, 2] }],
    ] as const) {
      expect(refusal(withNative(route, fields)), `${route} ${JSON.stringify(fields)}`).toBeUndefined();
    }
  });

  it('refuses a record its route cannot read with exit-2 input error: pointer, problem, and the shape expected', () => {
    for (const [route, fields, pointer] of [
      ['gemini', { thoughtSignature: '' }, '/messages/1/native/fields/thoughtSignature'],
      ['gemini', { parts: [{ kind: 'functionCall', chars: 3 }] }, '/messages/1/native/fields/parts/0'],
      ['vertex-gemini', { signature: 'S' }, '/messages/1/native/fields'],
      ['copilot', { reasoning_opaque: 7 }, '/messages/1/native/fields/reasoning_opaque'],
      ['copilot', { thought_signature: 'T' }, '/messages/1/native/fields'],
      ['openai-responses', { function_call_ids: { c1: 3 } }, '/messages/1/native/fields/function_call_ids/c1'],
    ] as const) {
      const err = refusal(withNative(route, fields));
      expect(err, `${route} ${JSON.stringify(fields)}`).toBeInstanceOf(InputError);
      expect(
        err!.pointer.startsWith(pointer) || pointer.startsWith(err!.pointer),
        `${err!.pointer} vs ${pointer}`,
      ).toBe(true);
      expect(err!.problem).toMatch(/^unreadable native record: /);
      expect(err!.hint).toContain(NATIVE_RECORD_SHAPES[route]);
    }
  });
});

describe('checkHistory on produced_by', () => {
  const withProducer = (producedBy: unknown) => ({
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'x', produced_by: producedBy },
    ],
  });

  it('takes the model that wrote a turn, with its upstream when a gateway names it', () => {
    expect(refusal(withProducer({ model: 'claude-fable-5-1' }))).toBeUndefined();
    expect(refusal(withProducer({ model: 'google/gemini-3-pro', upstream: 'google-vertex' }))).toBeUndefined();
  });

  it('refuses one without a model, or with a key it does not define, naming where', () => {
    expect(refusal(withProducer({ upstream: 'google-vertex' }))?.message).toContain('/messages/1/produced_by');
    expect(refusal(withProducer({ model: 'm', region: 'eu' }))?.message).toContain('/messages/1/produced_by');
  });
});
