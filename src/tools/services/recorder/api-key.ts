import { InputError } from '../../../shared/errors/input-error.js';
import { isLocalHost } from '../../../shared/route-table/host-matching.js';
import type { SecretValue } from './redact.js';
import { loadUserSecretRules } from './secret-patterns.js';

export interface ApiKey {
  /** The environment variable it was read from (also the name in redaction markers). */
  env?: string;
  value?: string;
  /**
   * A local server's conventional "any key" value (PLACEHOLDER_KEYS) at a local endpoint: sent as
   * given, never searched for or redacted (credential headers are still redacted by name).
   */
  placeholder?: true;
}

/**
 * The values local OpenAI-compatible servers document as "required by the client, ignored by the
 * server". Exact spellings only: each is a convention a user copies from those docs.
 *  - `EMPTY`: vLLM's own examples (`openai_api_key = "EMPTY"`),
 *    https://github.com/vllm-project/vllm/blob/main/examples/online_serving/openai_chat_completion_client.py
 *  - `sk-no-key-required`: llama.cpp's server README (the OpenAI client example),
 *    https://github.com/ggerganov/llama.cpp/blob/master/examples/server/README.md (now tools/server/)
 *  - `ollama`: "required but ignored", https://github.com/ollama/ollama/blob/main/docs/api/openai-compatibility.mdx
 * Commoner words (`none`, `dummy`, `x`) are not listed: no server's docs use them, and a real key
 * could be that short only by mistake; they stay refused (unset the variable instead).
 */
export const PLACEHOLDER_KEYS: ReadonlySet<string> = new Set(['EMPTY', 'sk-no-key-required', 'ollama']);

/** Where the key will be sent, when known: a placeholder is accepted only for a local endpoint. */
export interface KeyEndpoint {
  /** host[:port] of the endpoint (the live target's host). */
  host?: string;
}

/**
 * The key comes from the environment only, never from a flag: a flag lands in shell history and
 * in `ps` output. `--api-key-env` names the variable when the provider spec has none or differs.
 */
export function readApiKey(
  envName: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  endpoint: KeyEndpoint = {},
): ApiKey {
  if (!envName) return {};
  const value = env[envName];
  const key: ApiKey = value !== undefined && value !== '' ? { env: envName, value } : { env: envName };
  // A local server's placeholder is no secret: redacting its text would corrupt answers and
  // signatures that happen to hold it, and refusing it blocked recording the server at all.
  if (key.value && isPlaceholderFor(key.value, endpoint)) return { ...key, placeholder: true };
  assertRedactableKey(key);
  return key;
}

function isPlaceholderFor(value: string, endpoint: KeyEndpoint): boolean {
  return PLACEHOLDER_KEYS.has(value) && endpoint.host !== undefined && isLocalHost(endpoint.host);
}

/** Values redaction must scrub: the key in use, plus the spec's variable when a different one was named. */
export function secretValues(
  key: ApiKey,
  extraEnvNames: Array<string | undefined> = [],
  env: NodeJS.ProcessEnv = process.env,
): SecretValue[] {
  const out: SecretValue[] = [];
  if (key.value && !key.placeholder) out.push({ name: key.env ?? 'API_KEY', value: key.value });
  for (const name of [...extraEnvNames, ...loadUserSecretRules().env]) {
    const value = name ? env[name] : undefined;
    // The placeholder in use is no secret under any variable's name either.
    if (key.placeholder && value === key.value) continue;
    if (name && value && !out.some((s) => s.value === value)) out.push({ name, value });
  }
  return out;
}

/** Shorter keys are refused: see assertRedactableKey. */
export const MIN_REDACTABLE_KEY_LENGTH = 16;

/**
 * Redaction replaces every occurrence of the key's text, wherever it appears. A key such as `x`
 * or `none` occurs by chance in answers and headers, so replacing it would corrupt the capture,
 * and it cannot be replaced inside a signature at all. Such a key is refused up front, before any
 * request, with the reason (exit 2). A local server's documented placeholder never gets here
 * (readApiKey): it is not a secret, so nothing is replaced.
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
      `for an endpoint that needs no real key, unset ${key.env ?? 'the variable'} (nothing is sent), use a local server's documented placeholder (${[...PLACEHOLDER_KEYS].join(', ')}), or use a key of ${MIN_REDACTABLE_KEY_LENGTH}+ characters`,
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
