import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import type { History, Message } from '../../shared/history/history.js';
import { findPoisonedCarriers, OVERSIZED_SIGNATURE_CHARS } from './poisoned-carriers.js';

const user: Message = { role: 'user', content: 'Where is ORD-1?' };
const claude = (signature: string, extra: Partial<Message> = {}): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
  reasoning_details: [{ type: 'thinking', thinking: 'Look it up.', signature }],
  ...extra,
});
const history = (...messages: Message[]): History => ({ messages: [user, ...messages] });

/** Whole base64 signatures, as providers issue them (length a multiple of 4). */
const aWholeSignature = fc.uint8Array({ minLength: 24, maxLength: 600 }).map((b) => Buffer.from(b).toString('base64'));

describe('stored carriers that can never replay', () => {
  it('an empty signature, named with its turn, pointer and repair', () => {
    expect(findPoisonedCarriers(history(claude('')))).toEqual([
      expect.objectContaining({
        turn: 2,
        pointer: '/messages/1/reasoning_details/0/signature',
        kind: 'empty-signature',
        source: 'https://github.com/pydantic/pydantic-ai/issues/7597',
      }),
    ]);
  });

  test('a whole signature is never flagged', () => {
    fc.assert(
      fc.property(aWholeSignature, (sig) => {
        expect(findPoisonedCarriers(history(claude(sig)))).toEqual([]);
      }),
    );
  });

  test('a base64 signature cut at a length that is not a multiple of 4 is truncated', () => {
    fc.assert(
      fc.property(aWholeSignature, fc.nat(), (sig, n) => {
        const cut = 1 + (n % (sig.replace(/=+$/, '').length - 1));
        fc.pre(cut % 4 !== 0);
        const found = findPoisonedCarriers(history(claude(sig.slice(0, cut))));
        expect(found.map((f) => f.kind)).toEqual(['truncated-signature']);
      }),
    );
  });

  it('an ellipsis, and an oversized Claude signature', () => {
    expect(findPoisonedCarriers(history(claude('EqQBCkYIBxgC…')))[0]!.kind).toBe('truncated-signature');
    const big = 'A'.repeat(OVERSIZED_SIGNATURE_CHARS + 4);
    expect(findPoisonedCarriers(history(claude(big)))[0]!.kind).toBe('oversized-signature');
    // Another upstream's opaque blob may run longer: not judged by Claude's sizes.
    const gemini: Message = {
      role: 'assistant',
      content: null,
      reasoning_details: [{ type: 'reasoning.encrypted', data: big, format: 'google-gemini-v1' }],
    };
    expect(findPoisonedCarriers(history(gemini))).toEqual([]);
  });

  it('an item from another upstream, given the model the session is replayed to', () => {
    const routed: Message = {
      role: 'assistant',
      content: null,
      reasoning_details: [
        { type: 'reasoning.encrypted', data: 'CiQBjz1rX2Vk', format: 'google-gemini-v1', index: 0 },
        { type: 'reasoning.text', text: 'x', signature: 'EqQBCkYIBxgC', format: 'anthropic-claude-v1', index: 0 },
      ],
    };
    const found = findPoisonedCarriers(history(routed), { model: 'anthropic/claude-sonnet-4.5' });
    expect(found).toEqual([
      expect.objectContaining({ kind: 'foreign-upstream', pointer: '/messages/1/reasoning_details/0/format' }),
    ]);
    expect(findPoisonedCarriers(history(routed))).toEqual([]);
  });

  it("a Gemini native record's signature cut short gets the stand-in repair", () => {
    const m: Message = {
      role: 'assistant',
      content: null,
      native: { route: 'gemini', fields: { thoughtSignature: 'CiQBjz1rX' } },
    };
    const [found] = findPoisonedCarriers(history(m));
    expect(found).toMatchObject({ kind: 'truncated-signature', pointer: '/messages/1/native/fields/thoughtSignature' });
    expect(found!.repair).toContain('stand-in');
  });

  it('user and tool messages are not read', () => {
    expect(findPoisonedCarriers({ messages: [{ role: 'user', content: '', reasoning_content: '' }] })).toEqual([]);
  });
});
