import { describe, expect, it } from 'vitest';
import { InputError } from '../../../shared/errors/input-error.js';
import { PLACEHOLDER_KEYS, readApiKey, secretValues } from './api-key.js';

/**
 * Issue 27: a local server's conventional placeholder key (`EMPTY` for vLLM, ...) was refused as
 * "too short to redact", although it is no secret: the server ignores it. At a local endpoint it
 * is now sent and never redacted; anywhere else, and for any other short key, the refusal stands.
 */
describe('readApiKey and placeholder keys', () => {
  it.each([...PLACEHOLDER_KEYS])('accepts %s at a local endpoint, and redaction leaves its text alone', (value) => {
    for (const host of ['127.0.0.1:8000', 'localhost:11434', '[::1]:8080', 'gpu-box:8000', '192.168.1.20:1234']) {
      const key = readApiKey('LOCAL_KEY', { LOCAL_KEY: value }, { host });
      expect(key).toMatchObject({ env: 'LOCAL_KEY', value, placeholder: true });
      expect(secretValues(key, ['LOCAL_KEY'], { LOCAL_KEY: value })).toEqual([]);
    }
  });

  it('still refuses a placeholder sent to a public endpoint, or with no endpoint known', () => {
    expect(() => readApiKey('K', { K: 'EMPTY' }, { host: 'api.deepseek.com' })).toThrow(InputError);
    expect(() => readApiKey('K', { K: 'EMPTY' })).toThrow(/too short to redact/);
  });

  it('still refuses a short key that is not a conventional placeholder, even locally', () => {
    for (const value of ['x', 'sk-1', 'empty', 'EMPTY ', 'aaaaaaaaaaaaaaaaaaaa'])
      expect(() => readApiKey('K', { K: value }, { host: '127.0.0.1:8000' }), value).toThrow(InputError);
  });

  it('keeps a real key a secret at a local endpoint, and another variable holding a real key too', () => {
    const real = ['sk', 'live', 'Qx2LmN8rT1vYb6KcZ4f9'].join('-');
    const key = readApiKey('K', { K: real }, { host: '127.0.0.1:8000' });
    expect(key.placeholder).toBeUndefined();
    expect(secretValues(key, [], {})).toEqual([{ name: 'K', value: real }]);
    const local = readApiKey('LOCAL', { LOCAL: 'EMPTY', DEEPSEEK_API_KEY: real }, { host: 'localhost' });
    expect(secretValues(local, ['DEEPSEEK_API_KEY'], { LOCAL: 'EMPTY', DEEPSEEK_API_KEY: real })).toEqual([
      { name: 'DEEPSEEK_API_KEY', value: real },
    ]);
  });
});
