import { redactText, type SecretValue } from '../recorder/redact.js';

/** Credentials the serving process knows by name: any *_API_KEY / *_TOKEN / *_SECRET* / *_KEY in its environment. */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): SecretValue[] {
  return Object.entries(env)
    .filter(
      ([name, value]) => /(_API_KEY|_TOKEN|SECRET|_KEY)$/i.test(name) && typeof value === 'string' && value.length >= 8,
    )
    .map(([name, value]) => ({ name, value: value! }));
}

/**
 * A request body fit for a log file: every string (and key) goes through the recorder's redaction
 * for printed text, so known secret values in any spelling, credential URL parameters and anything
 * credential-shaped are masked the same way everywhere the project prints or writes.
 */
export function redactBody(body: unknown, secrets: readonly SecretValue[]): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactText(k, secrets), walk(x)]));
    return v;
  };
  return walk(body);
}
