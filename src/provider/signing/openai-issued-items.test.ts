import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import {
  encryptedContentOrganization,
  mockEncryptedContent,
  mockPairedItemId,
  organizationOf,
  pairedReasoningId,
} from './openai-issued-items.js';

const hexId = fc.stringMatching(/^[0-9a-f]{1,50}$/).map((hex) => `rs_${hex}`);

describe('encrypted_content the Responses mock issues', () => {
  it('reads back the organization it was issued for, for that reasoning item only', () => {
    const blob = mockEncryptedContent('rs_01', 'seed', organizationOf('openrouter'));
    expect(mockEncryptedContent('rs_01', 'seed', organizationOf('openrouter'))).toBe(blob);
    expect(encryptedContentOrganization('rs_01', blob)).toBe('org-mock-openrouter');
    expect(encryptedContentOrganization('rs_02', blob)).toBeUndefined();
    expect(encryptedContentOrganization('rs_01', 'gAAAAABvdGhlci1vcmdhbml6YXRpb24=')).toBeUndefined();
    expect(encryptedContentOrganization('rs_01', 42)).toBeUndefined();
  });

  test('refuses a blob with any one character changed (the organization in it included)', () => {
    fc.assert(
      fc.property(hexId, fc.string(), fc.nat(), fc.integer({ min: 1, max: 63 }), (id, seed, at, shift) => {
        const blob = mockEncryptedContent(id, seed, organizationOf('openai-responses'));
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
        const i = at % blob.length;
        const c = blob[i]!;
        const changed =
          blob.slice(0, i) + (c === '=' ? 'A' : alphabet[(alphabet.indexOf(c) + shift) % 64]) + blob.slice(i + 1);
        expect(encryptedContentOrganization(id, changed)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});

describe('fc_ and msg_ ids the Responses mock issues', () => {
  test('name the reasoning item they were issued after, for their own item type', () => {
    fc.assert(
      fc.property(hexId, fc.nat({ max: 255 }), (rs, n) => {
        const id = mockPairedItemId('function_call', rs, n);
        expect(id).toMatch(/^fc_[0-9a-f]+$/);
        expect(pairedReasoningId('function_call', id)).toBe(rs);
        expect(pairedReasoningId('message', id)).toBeUndefined();
        expect(pairedReasoningId('message', mockPairedItemId('message', rs, n))).toBe(rs);
      }),
      { numRuns: 100 },
    );
  });

  it('pair nothing for an id the mock did not issue', () => {
    // OpenAI's own ids (mastra-ai/mastra#8738) are foreign to the mock.
    expect(pairedReasoningId('function_call', 'fc_0a038568becf80fb0068e9630e5fd081978df905e0edaed49a')).toBeUndefined();
    expect(pairedReasoningId('function_call', 'fc_1')).toBeUndefined();
    const issued = mockPairedItemId('function_call', 'rs_abc', 0);
    expect(
      pairedReasoningId(
        'function_call',
        issued.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      ),
    ).toBeUndefined();
    expect(() => mockPairedItemId('function_call', 'reasoning-1', 0)).toThrow(/rs_<hex>/);
  });
});
