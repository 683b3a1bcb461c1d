import type { SecretValue } from './redact.js';

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
  return value !== undefined && value !== '' ? { env: envName, value } : { env: envName };
}

/** Values redaction must scrub: the key in use, plus the spec's variable when a different one was named. */
export function secretValues(key: ApiKey, extraEnvNames: Array<string | undefined> = [], env: NodeJS.ProcessEnv = process.env): SecretValue[] {
  const out: SecretValue[] = [];
  if (key.value) out.push({ name: key.env ?? 'API_KEY', value: key.value });
  for (const name of extraEnvNames) {
    const value = name ? env[name] : undefined;
    if (name && value && !out.some((s) => s.value === value)) out.push({ name, value });
  }
  return out;
}
