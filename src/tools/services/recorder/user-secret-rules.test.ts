import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../../../shared/errors/input-error.js';
import { secretValues } from './api-key.js';
import { redactText } from './redact.js';
import { findSecretsInText, loadUserSecretRules } from './secret-patterns.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-user-rules-'));
const rules = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
const token = 'itk_' + 'Q7'.repeat(16);

afterEach(() => {
  delete process.env.REASONING_REPLAY_SECRETS;
  delete process.env.RR_TEST_GATEWAY;
});

describe('reasoning-replay.secrets.json', () => {
  it('adds the user’s patterns to the sweep and to printed-line masking', () => {
    expect(findSecretsInText(`x ${token} y`)).toEqual([]);
    process.env.REASONING_REPLAY_SECRETS = rules('ok.json', {
      patterns: [{ name: 'gateway token', pattern: 'itk_[A-Za-z0-9]{32}' }],
    });
    expect(findSecretsInText(`x ${token} y`).map((f) => f.pattern)).toEqual(['gateway token']);
    expect(redactText(`refused ${token}`)).not.toContain(token);
  });

  it('redacts the values of the variables it lists, like the API key', () => {
    process.env.RR_TEST_GATEWAY = 'gw-' + 'a1b2c3d4'.repeat(3);
    process.env.REASONING_REPLAY_SECRETS = rules('env.json', { env: ['RR_TEST_GATEWAY'] });
    expect(secretValues({}).map((s) => s.name)).toEqual(['RR_TEST_GATEWAY']);
  });

  it('refuses a bad file naming the pointer', () => {
    expect(() =>
      loadUserSecretRules(rules('bad-re.json', { patterns: [{ name: 'x', pattern: '(unclosed' }] })),
    ).toThrow(InputError);
    expect(() =>
      loadUserSecretRules(rules('bad-re2.json', { patterns: [{ name: 'x', pattern: '(unclosed' }] })),
    ).toThrow(/\/patterns\/0\/pattern/);
    expect(() => loadUserSecretRules(rules('bad-key.json', { pattern: [] }))).toThrow(/unexpected property "pattern"/);
  });
});
