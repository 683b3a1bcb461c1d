import { describe, expect, it } from 'vitest';
import type { History, Message } from '../../shared/history/history.js';
import { isSignatureRefusal, withoutSignedReasoning } from './strip-unverifiable-reasoning.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const call = (id: string) => ({ id, type: 'function' as const, function: { name: 'lookup', arguments: '{}' } });
const thinking = { type: 'thinking' as const, thinking: 'Look it up.', signature: 'c2lnbmF0dXJl' };
const toolTurn = (id: string, extra: Partial<Message> = {}): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [call(id)],
  reasoning_details: [thinking],
  ...extra,
});
const result = (id: string): Message => ({ role: 'tool', tool_call_id: id, content: 'ok' });

describe('isSignatureRefusal', () => {
  it.each([
    [400, { error: { message: 'messages.1.content.0: Invalid `signature` in `thinking` block' } }, true],
    // OpenRouter carries the upstream's refusal as a string inside its own envelope.
    [
      400,
      { error: { metadata: { raw: '{"message":"messages.1.content.0: Invalid `signature` in `thinking` block"}' } } },
      true,
    ],
    [400, 'Corrupted thought signature.', true],
    [400, { error: { message: 'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`' } }, false],
    [500, 'Invalid `signature` in `thinking` block', false],
    [200, 'Invalid `signature` in `thinking` block', false],
  ])('%i %j -> %s', (status, body, expected) => {
    expect(isSignatureRefusal(status, body)).toBe(expected);
  });
});

describe('withoutSignedReasoning', () => {
  it('drops signed items and native records from finished turns, keeping text, calls and readable reasoning', () => {
    const history: History = {
      messages: [
        user('a'),
        toolTurn('c1', {
          reasoning: 'Look it up.',
          reasoning_details: [thinking, { type: 'reasoning.text', text: 'plain', format: 'unknown' }],
          native: { route: 'gemini', fields: { thoughtSignature: 'sig' } },
        }),
        result('c1'),
        { role: 'assistant', content: 'Shipped.' },
        user('b'),
      ],
    };
    const repaired = withoutSignedReasoning(history)!;
    expect(repaired.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [call('c1')],
      reasoning: 'Look it up.',
      reasoning_details: [{ type: 'reasoning.text', text: 'plain', format: 'unknown' }],
    });
    expect(repaired.messages).toHaveLength(5);
    // The stored history is not touched: the caller decides whether the repair is kept.
    expect(history.messages[1]!.reasoning_details).toHaveLength(2);
  });

  it('restarts a tool loop in flight whose thinking had to go: its calls and results leave, from the user message on', () => {
    const history: History = { messages: [user('a'), toolTurn('c1'), result('c1'), toolTurn('c2'), result('c2')] };
    expect(withoutSignedReasoning(history)!.messages).toEqual([user('a')]);
  });

  it('keeps a loop in flight whose turns carried nothing signed', () => {
    const plain = toolTurn('c2', { reasoning_details: [] });
    const history: History = {
      messages: [
        user('a'),
        toolTurn('c1'),
        result('c1'),
        { role: 'assistant', content: 'ok' },
        user('b'),
        plain,
        result('c2'),
      ],
    };
    const repaired = withoutSignedReasoning(history)!;
    expect(repaired.messages).toHaveLength(7);
    expect(repaired.messages[5]).toEqual(plain);
  });

  it('answers nothing when nothing signed is left: a retry would resend the same history', () => {
    expect(withoutSignedReasoning({ messages: [user('a'), { role: 'assistant', content: 'hi' }] })).toBeUndefined();
  });
});
