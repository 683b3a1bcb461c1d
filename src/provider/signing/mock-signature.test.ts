import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import {
  mockIssuedWhere,
  mockRedactedData,
  mockSignThinking,
  verifyMockRedactedData,
  verifyMockThinkingSignature,
} from './mock-signature.js';

/** Replaces one base64 character with another valid one, so the blob still decodes but differs. */
function flipChar(s: string, at: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const i = at % s.replace(/=+$/, '').length;
  const next = alphabet[(alphabet.indexOf(s[i]!) + 1) % 64]!;
  return s.slice(0, i) + next + s.slice(i + 1);
}

describe('mock signatures', () => {
  it('accepts the signature it issued, for the same text at the same place', () => {
    const sig = mockSignThinking('think', 0);
    expect(verifyMockThinkingSignature('think', 0, sig)).toBe(true);
  });

  it('refuses edited text, another position, another signer, and missing or empty signatures', () => {
    const sig = mockSignThinking('think', 0);
    expect(verifyMockThinkingSignature('think ', 0, sig)).toBe(false);
    expect(verifyMockThinkingSignature('think', 1, sig)).toBe(false);
    expect(verifyMockThinkingSignature('think', 0, mockSignThinking('think', 0, 'someone-else'))).toBe(false);
    expect(verifyMockThinkingSignature('think', 0, undefined)).toBe(false);
    expect(verifyMockThinkingSignature('think', 0, '')).toBe(false);
  });

  test('refuses a signature with any one character changed', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(3), fc.nat(), (text, ordinal, at) => {
        const sig = mockSignThinking(text, ordinal);
        expect(verifyMockThinkingSignature(text, ordinal, flipChar(sig, at))).toBe(false);
      }),
    );
  });

  test('refuses redacted data with any one character changed', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(3), fc.nat(), (seed, ordinal, at) => {
        const data = mockRedactedData(seed, ordinal);
        expect(verifyMockRedactedData(data, ordinal)).toBe(true);
        expect(verifyMockRedactedData(flipChar(data, at), ordinal)).toBe(false);
        expect(verifyMockRedactedData(data, ordinal + 1)).toBe(false);
      }),
    );
  });

  it('binds the number of reasoning blocks the issuing message held and the content index, and keeps the common form unchanged', () => {
    const among2 = mockSignThinking('think', 0, undefined, { blocks: 2 });
    expect(verifyMockThinkingSignature('think', 0, among2, undefined, { blocks: 2 })).toBe(true);
    expect(verifyMockThinkingSignature('think', 0, among2)).toBe(false);
    expect(verifyMockThinkingSignature('think', 0, among2, undefined, { blocks: 3 })).toBe(false);
    expect(mockSignThinking('think', 0, undefined, { blocks: 1, at: 0 })).toBe(mockSignThinking('think', 0));
    const at2 = mockSignThinking('think', 1, undefined, { blocks: 2, at: 2 });
    expect(verifyMockThinkingSignature('think', 1, at2, undefined, { blocks: 2, at: 2 })).toBe(true);
    expect(verifyMockThinkingSignature('think', 1, at2, undefined, { blocks: 2, at: 1 })).toBe(false);
    const data = mockRedactedData('s', 1, undefined, { blocks: 2 });
    expect(verifyMockRedactedData(data, 1, undefined, { blocks: 2 })).toBe(true);
    expect(verifyMockRedactedData(data, 1)).toBe(false);
    expect(mockRedactedData('s', 1, undefined, { at: 1 })).toBe(mockRedactedData('s', 1));
  });

  it('says in clear where a bound blob was issued, and a false claim does not verify', () => {
    const sig = mockSignThinking('think', 1, undefined, { blocks: 3, at: 4 });
    expect(mockIssuedWhere(sig)).toEqual({ ordinal: 1, blocks: 3, at: 4 });
    expect(mockIssuedWhere(mockSignThinking('think', 0))).toBeUndefined();
    const bytes = Buffer.from(sig, 'base64');
    bytes.writeUInt16BE(2, bytes.length - 2);
    const lying = bytes.toString('base64');
    expect(mockIssuedWhere(lying)).toEqual({ ordinal: 1, blocks: 3, at: 2 });
    expect(verifyMockThinkingSignature('think', 1, lying, undefined, { blocks: 3, at: 2 })).toBe(false);
    expect(verifyMockThinkingSignature('think', 1, lying, undefined, { blocks: 3, at: 4 })).toBe(true);
    expect(mockIssuedWhere(mockRedactedData('s', 0, undefined, { blocks: 2 }))).toEqual({
      ordinal: 0,
      blocks: 2,
      at: 0,
    });
  });

  it('is deterministic, so synthesized fixtures do not churn', () => {
    expect(mockSignThinking('a', 0)).toBe(mockSignThinking('a', 0));
    expect(mockRedactedData('s', 0)).toBe(mockRedactedData('s', 0));
  });
});
