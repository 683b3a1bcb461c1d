/**
 * Credential shapes the final sweep looks for after redaction. A match anywhere in a fixture stops
 * the write. The patterns are anchored on token boundaries on purpose: signed and encrypted
 * reasoning (Anthropic signatures, redacted_thinking data, OpenAI encrypted_content, Gemini
 * thoughtSignature) is long base64, and an unanchored `AIza...` or `AKIA...` would sooner or later
 * be found in the middle of such a blob and block an honest fixture.
 */
export interface SecretPattern {
  name: string;
  pattern: RegExp;
}

/** Characters that may stand next to a token without being part of it (not base64/base64url). */
const B = '(?<![A-Za-z0-9+/_-])';
const E = '(?![A-Za-z0-9_-])';

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-api03-), OpenRouter (sk-or-v1-), DeepSeek, Moonshot...
  { name: 'sk- API key', pattern: new RegExp(`${B}sk-[A-Za-z0-9_-]{20,}`, 'g') },
  { name: 'AWS access key id', pattern: /(?<![A-Za-z0-9+/])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { name: 'Google API key', pattern: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}${E}`, 'g') },
  { name: 'GitHub token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'Slack token', pattern: /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/g },
  // A real bearer credential has digits; prose such as "Bearer authentication" must not trip it.
  { name: 'Bearer token', pattern: /\bBearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/gi },
  { name: 'JSON Web Token', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: 'private key block', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/g },
];

export interface SecretMatch {
  pattern: string;
  /** The match masked to its first four characters and its length: the report must not leak it. */
  masked: string;
}

export function maskSecret(secret: string): string {
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}

export function findSecretsInText(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  for (const { name, pattern } of SECRET_PATTERNS) {
    for (const m of text.matchAll(pattern)) found.push({ pattern: name, masked: maskSecret(m[0]) });
  }
  return found;
}

export interface SecretFinding extends SecretMatch {
  /** JSON pointer of the string (or object key) that holds the match. */
  pointer: string;
}

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** Every secret-shaped string in a JSON value, object keys included, with its JSON pointer. */
export function sweepForSecrets(value: unknown, pointer = ''): SecretFinding[] {
  if (typeof value === 'string') return findSecretsInText(value).map((m) => ({ ...m, pointer: pointer || '/' }));
  if (Array.isArray(value)) return value.flatMap((v, i) => sweepForSecrets(v, `${pointer}/${i}`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => {
      const at = `${pointer}/${escapePointer(k)}`;
      return [...findSecretsInText(k).map((m) => ({ ...m, pointer: at })), ...sweepForSecrets(v, at)];
    });
  }
  return [];
}
