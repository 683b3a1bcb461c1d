import { InputError } from '../../shared/errors/input-error.js';
import type { SecretValue } from './redact.js';
import { loadUserSecretRules } from './secret-patterns.js';

export interface ApiKey {
  /** The environment variable it was read from (also the name in redaction markers). */
  env?: string;
  value?: string;
}

/**
 * The key comes from the environment only, never from a flag: a flag lands in shell history and
 * in `ps` output. `--api-key-env` names the variable when the provider spec has none or differs.
 */
export function readApiKey(envName: string | undefined, env: NodeJS.ProcessEnv = process.env): ApiKey {
  if (!envName) return {};
  const value = env[envName];
  const key: ApiKey = value !== undefined && value !== '' ? { env: envName, value } : { env: envName };
  assertRedactableKey(key);
  return key;
}

/** Values redaction must scrub: the key in use, plus the spec's variable when a different one was named. */
export function secretValues(
  key: ApiKey,
  extraEnvNames: Array<string | undefined> = [],
  env: NodeJS.ProcessEnv = process.env,
): SecretValue[] {
  const out: SecretValue[] = [];
  if (key.value) out.push({ name: key.env ?? 'API_KEY', value: key.value });
  for (const name of [...extraEnvNames, ...loadUserSecretRules().env]) {
    const value = name ? env[name] : undefined;
    if (name && value && !out.some((s) => s.value === value)) out.push({ name, value });
  }
  return out;
}

/** Shorter keys are refused: see assertRedactableKey. */
export const MIN_REDACTABLE_KEY_LENGTH = 16;

/**
 * Redaction replaces every occurrence of the key's text, wherever it appears. A key such as `x`,
 * `EMPTY` or `none` (local servers accept anything) occurs by chance in answers and headers, so
 * replacing it would corrupt the capture, and it cannot be replaced inside a signature at all.
 * Such a key is refused up front, before any request, with the reason (exit 2).
 */
export function assertRedactableKey(key: ApiKey): void {
  if (!key.value) return;
  const value = key.value;
  const why =
    value.length < MIN_REDACTABLE_KEY_LENGTH
      ? `is ${value.length} characters long, too short to redact safely (under ${MIN_REDACTABLE_KEY_LENGTH})`
      : new Set(value).size < 5
        ? 'has fewer than 5 distinct characters, too common a text to redact safely'
        : undefined;
  if (why) {
    throw new InputError(
      key.env ?? '--api-key-env',
      '',
      `the API key ${why}: every occurrence of its text would be replaced, including inside answers and signed reasoning, which corrupts the capture`,
      `for an endpoint that needs no real key, unset ${key.env ?? 'the variable'} (nothing is sent), or use a key of ${MIN_REDACTABLE_KEY_LENGTH}+ characters`,
    );
  }
}

/** The values of the user's extra secret variables (reasoning-replay.secrets.json "env"). */
export function userSecretValues(names: readonly string[], env: NodeJS.ProcessEnv = process.env): SecretValue[] {
  return names.flatMap((name) => {
    const value = env[name];
    return value && value.length >= MIN_REDACTABLE_KEY_LENGTH ? [{ name, value }] : [];
  });
}
