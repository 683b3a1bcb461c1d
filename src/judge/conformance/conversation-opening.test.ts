import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { conversationOpening } from './conversation-opening.js';

describe('conversationOpening (which conversation a request continues)', () => {
  it('is the same for one opening turn however each wire family spells it, and differs for another', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 2 }), fc.string({ minLength: 1 }), fc.nat(), (text, other, cut) => {
        const at = 1 + (cut % (text.length - 1));
        const spellings = [
          { messages: [{ role: 'user', content: text }] },
          {
            messages: [
              { role: 'user', content: [{ type: 'text', text }] },
              { role: 'assistant', content: 'x' },
            ],
          },
          { input: text },
          // A turn in several parts is one text.
          {
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: text.slice(0, at) },
                  { type: 'text', text: text.slice(at) },
                ],
              },
            ],
          },
          // A Responses compact answer lists the user messages again as input_text parts before its item.
          {
            input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text }] }, { type: 'compaction' }],
          },
          { contents: [{ role: 'user', parts: [{ text }] }] },
        ];
        const keys = new Set(spellings.map(conversationOpening));
        expect([...keys]).toEqual([conversationOpening({ input: text })]);
        if (other !== text)
          expect(conversationOpening({ input: other })).not.toBe(conversationOpening({ input: text }));
      }),
    );
  });

  it('names no conversation where the body holds no user turn', () => {
    expect(conversationOpening({ previous_response_id: 'resp_1', input: [] })).toBeUndefined();
    expect(conversationOpening({ messages: [{ role: 'assistant', content: 'hi' }] })).toBeUndefined();
    expect(
      conversationOpening({ input: [{ type: 'function_call_output', role: 'user', output: 'x' }] }),
    ).toBeUndefined();
    expect(conversationOpening('not json')).toBeUndefined();
  });
});
