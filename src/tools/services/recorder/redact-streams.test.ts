import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { redactStreamEvents } from './redact-streams.js';
import { markerFor, redactKnownSecrets, secretForms } from './secret-forms.js';

const aKey = fc
  .string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 20,
    maxLength: 40,
  })
  .map((s) => `sk-${s}`);
const someProse = fc.string({ unit: fc.constantFrom(...'abc xyz.,'), maxLength: 30 });
/** Where the text is cut into deltas: sorted distinct offsets. */
const cutsOf = (length: number) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 8 })
    .map((c) => c.sort((a, b) => a - b));

const chunk = (content: string) => ({ data: JSON.stringify({ choices: [{ index: 0, delta: { content } }] }) });
const reassemble = (events: Array<{ data: string }>) =>
  events
    .map((e) => (JSON.parse(e.data) as { choices: [{ delta: { content: string } }] }).choices[0].delta.content)
    .join('');

describe('redactStreamEvents', () => {
  test('a key cut anywhere across content deltas reads as one marker once reassembled', () => {
    fc.assert(
      fc.property(
        fc
          .tuple(aKey, someProse, someProse)
          .chain(([key, before, after]) =>
            fc.tuple(
              fc.constant(key),
              fc.constant(`${before}${key}${after}`),
              cutsOf(before.length + key.length + after.length),
            ),
          ),
        ([key, text, cuts]) => {
          const events = [0, ...cuts].map((from, i) => chunk(text.slice(from, [...cuts, text.length][i])));
          expect(events.map((e) => reassemble([e])).join('')).toBe(text);
          const out = redactStreamEvents(events, secretForms([{ name: 'K', value: key }]));
          const joined = reassemble(out);
          expect(joined).not.toContain(key);
          expect(joined).toBe(text.replace(key, markerFor('K')));
        },
      ),
      { numRuns: 150 },
    );
  });

  test('signed fields are never joined or altered, even when they spell the key', () => {
    fc.assert(
      fc.property(aKey, (key) => {
        const events = [{ data: JSON.stringify({ delta: { type: 'signature_delta', signature: key } }) }];
        expect(redactStreamEvents(events, secretForms([{ name: 'K', value: key }]))).toEqual(events);
      }),
      { numRuns: 50 },
    );
  });
});

describe('redactKnownSecrets', () => {
  test('finds the key inside a longer base64 text at any alignment', () => {
    fc.assert(
      fc.property(
        aKey,
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('base64', 'base64url'),
        (key, pad, alphabet) => {
          const encoded = Buffer.from(`${'p'.repeat(pad)}Bearer ${key} tail`).toString(alphabet as BufferEncoding);
          expect(redactKnownSecrets(encoded, secretForms([{ name: 'K', value: key }]))).toContain(markerFor('K'));
        },
      ),
      { numRuns: 100 },
    );
  });

  test('finds the key with any prefix \\u- or %-escaped', () => {
    fc.assert(
      fc.property(aKey, fc.integer({ min: 1, max: 40 }), (key, n) => {
        const forms = secretForms([{ name: 'K', value: key }]);
        const u =
          [...key.slice(0, n)].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') +
          key.slice(n);
        const pct = [...key.slice(0, n)].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('') + key.slice(n);
        expect(redactKnownSecrets(`a ${u} b`, forms)).toBe(`a ${markerFor('K')} b`);
        expect(redactKnownSecrets(`a ${pct} b`, forms)).toBe(`a ${markerFor('K')} b`);
      }),
      { numRuns: 100 },
    );
  });
});
