import { SECRET_PATTERNS } from '../recorder/secret-patterns.js';
import { redactSecretValues, type SecretValue } from '../recorder/redact.js';

/** Credentials the serving process knows by name: any *_API_KEY / *_TOKEN / *_SECRET* in its environment. */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): SecretValue[] {
  return Object.entries(env)
    .filter(([name, value]) => /(_API_KEY|_TOKEN|SECRET|_KEY)$/i.test(name) && typeof value === 'string' && value.length >= 8)
    .map(([name, value]) => ({ name, value: value! }));
}

/**
 * A request body fit for a log file: known secret values replaced by name, then anything shaped like
 * a credential (sk-..., AIza..., bearer tokens, JWTs) masked by kind. Reasoning blobs are left as
 * they are: the patterns are anchored so base64 signatures do not trip them.
 */
export function redactBody(body: unknown, secrets: readonly SecretValue[]): unknown {
  const known = redactSecretValues(body, secrets);
  const scrub = (text: string): string => SECRET_PATTERNS.reduce((acc, { name, pattern }) => acc.replace(pattern, `[redacted:${name}]`), text);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k), walk(x)]));
    return v;
  };
  return walk(known);
}
