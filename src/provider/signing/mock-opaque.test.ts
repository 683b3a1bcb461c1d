import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { mockOpaque, verifyMockOpaque } from './mock-opaque.js';

describe('mock opaque blobs', () => {
  it('verifies what it issued, for the same signer and kind only', () => {
    const blob = mockOpaque('gemini', 'thought', 'scenario-a/0/1');
    expect(mockOpaque('gemini', 'thought', 'scenario-a/0/1')).toBe(blob);
    expect(verifyMockOpaque('gemini', 'thought', blob)).toBe(true);
    expect(verifyMockOpaque('vertex-gemini', 'thought', blob)).toBe(false);
    expect(verifyMockOpaque('gemini', 'opaque', blob)).toBe(false);
    expect(verifyMockOpaque('gemini', 'thought', '')).toBe(false);
    expect(verifyMockOpaque('gemini', 'thought', 42)).toBe(false);
  });

  test('refuses a blob with any character changed', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.integer({ min: 1, max: 63 }), (seed, at, shift) => {
        const blob = mockOpaque('openai-responses', 'encrypted', seed);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        const i = at % blob.length;
        const c = blob[i]!;
        const replaced = c === '=' ? 'A' : alphabet[(alphabet.indexOf(c) + shift) % 64]!;
        expect(verifyMockOpaque('openai-responses', 'encrypted', blob.slice(0, i) + replaced + blob.slice(i + 1))).toBe(
          false,
        );
      }),
    );
  });
});
