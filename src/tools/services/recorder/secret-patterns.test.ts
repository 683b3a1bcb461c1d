import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { findSecretsInText, sweepForSecrets } from './secret-patterns.js';

// Shaped like the real thing, but made up here: none of these was ever a live credential.
const planted = {
  openai: 'sk-proj-4f9Qx2LmN8rT1vYb6KcZ0aWd3eHs7uJp',
  anthropic: 'sk-ant-api03-Zx81Lq0vP3nM6tR9aB2cD5eF8gH1jK4l',
  aws: 'AKIAZ7Q3R5T2W8Y4U6I0',
  google: 'AIzaSyD4-f8Qx2LmN8rT1vYb6KcZ0aWd3eHs7uJ',
  github: 'ghp_4f9Qx2LmN8rT1vYb6KcZ0aWd3eHs7uJpAbCd',
  bearer: 'Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0',
};

describe('findSecretsInText', () => {
  it.each(Object.entries(planted))('finds a planted %s credential inside prose', (_name, secret) => {
    const found = findSecretsInText(`the header said ${secret}, then nothing`);
    expect(found.length).toBeGreaterThan(0);
    // The report masks what it found.
    expect(JSON.stringify(found)).not.toContain(secret.slice(8));
  });

  it('leaves redaction markers and prose about auth alone', () => {
    expect(findSecretsInText('Bearer [redacted-by-recorder] and [redacted-by-recorder:DEEPSEEK_API_KEY]')).toEqual([]);
    expect(findSecretsInText('Use Bearer authentication with the x-api-key header; sk-learn is a library.')).toEqual(
      [],
    );
  });
});

describe('sweepForSecrets', () => {
  it('names the JSON pointer of each finding, object keys included', () => {
    const found = sweepForSecrets({ a: [{ b: `x ${planted.aws}` }], [planted.openai]: 1 });
    expect(found.map((f) => f.pointer).sort()).toEqual(['/a/0/b', `/${planted.openai}`].sort());
  });

  // Signatures and encrypted reasoning are long base64 / base64url blobs; the sweep must never take
  // one for a credential, or honest fixtures could not be written.
  test('keeps signed and encrypted reasoning: base64 blobs are not secrets', () => {
    fc.assert(
      fc.property(
        fc.base64String({ minLength: 200, maxLength: 4000 }),
        fc.constantFrom('signature', 'encrypted_content', 'data', 'thoughtSignature'),
        (blob, key) => {
          expect(sweepForSecrets({ reasoning_details: [{ type: 'reasoning.encrypted', [key]: blob }] })).toEqual([]);
          const urlSafe = blob.replaceAll('+', '-').replaceAll('/', '_');
          expect(sweepForSecrets({ [key]: urlSafe }).filter((f) => f.pattern !== 'sk- API key')).toEqual([]);
        },
      ),
    );
  });
});
