import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid } from '../../../shared/validation/validate.js';

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
  { name: 'AWS access key id', pattern: new RegExp(`${B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}${E}`, 'g') },
  { name: 'Google API key', pattern: new RegExp(`${B}AIza[0-9A-Za-z_-]{35}${E}`, 'g') },
  { name: 'GitHub token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'Slack token', pattern: /(?<![A-Za-z0-9])xox[abprs]-[A-Za-z0-9-]{10,}/g },
  // A real bearer credential has digits; prose such as "Bearer authentication" must not trip it.
  { name: 'Bearer token', pattern: /\bBearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/gi },
  {
    name: 'JSON Web Token',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  { name: 'private key block', pattern: /-----BEGIN\s[A-Z ]*PRIVATE KEY-----/g },
  // LLM providers secretlint's recommended preset does not cover (it has OpenAI, Anthropic, AWS, GCP,
  // GitHub, Slack, npm, ...): Groq, Hugging Face, xAI, Replicate, Perplexity, Fireworks, Together.
  { name: 'Groq API key', pattern: new RegExp(`${B}gsk_[A-Za-z0-9]{40,}${E}`, 'g') },
  { name: 'Hugging Face token', pattern: new RegExp(`${B}hf_[A-Za-z0-9]{30,}${E}`, 'g') },
  { name: 'xAI API key', pattern: new RegExp(`${B}xai-[A-Za-z0-9]{40,}${E}`, 'g') },
  { name: 'Replicate token', pattern: new RegExp(`${B}r8_[A-Za-z0-9]{30,}${E}`, 'g') },
  { name: 'Perplexity API key', pattern: new RegExp(`${B}pplx-[A-Za-z0-9]{40,}${E}`, 'g') },
  { name: 'Fireworks API key', pattern: new RegExp(`${B}fw_[A-Za-z0-9]{20,}${E}`, 'g') },
  { name: 'npm token', pattern: new RegExp(`${B}npm_[A-Za-z0-9]{36}${E}`, 'g') },
  // An AWS secret access key is 40 base64 characters with no prefix: only its name gives it away.
  {
    name: 'AWS secret access key',
    pattern: /aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
  },
  // user:password@ in any URL (a database, a git remote, a proxy).
  {
    name: 'password in a URL',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'[\]]+:(?!\[redacted)[^\s/?#@"']{3,}@[^\s/?#"']+/gi,
  },
];

/**
 * User rules: `reasoning-replay.secrets.json` in the working directory, or the file named by
 * $REASONING_REPLAY_SECRETS (specs/schema/secret-patterns.schema.json; docs/recording.md).
 */
export interface UserSecretRules {
  file?: string;
  patterns: SecretPattern[];
  env: string[];
}

let userRules: UserSecretRules | undefined;

export function userSecretRulesFile(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.REASONING_REPLAY_SECRETS) return env.REASONING_REPLAY_SECRETS;
  const file = join(cwd, 'reasoning-replay.secrets.json');
  return existsSync(file) ? file : undefined;
}

/** Reads (once per process, unless `file` is given) the user's rules; a bad file is bad input naming the pointer. */
export function loadUserSecretRules(file = userSecretRulesFile()): UserSecretRules {
  if (userRules && userRules.file === file) return userRules;
  if (!file) return (userRules = { patterns: [], env: [] });
  const config = assertValid<{ patterns?: Array<{ name: string; pattern: string; flags?: string }>; env?: string[] }>(
    readJsonFile(file),
    'secret-patterns.schema.json',
    file,
  );
  const patterns = (config.patterns ?? []).map((p, i) => {
    try {
      return { name: p.name, pattern: new RegExp(p.pattern, `${p.flags ?? ''}g`) };
    } catch (err) {
      throw new InputError(
        file,
        `/patterns/${i}/pattern`,
        `is not a valid regular expression (${(err as Error).message})`,
      );
    }
  });
  return (userRules = { file, patterns, env: config.env ?? [] });
}

function allPatterns(): readonly SecretPattern[] {
  const user = loadUserSecretRules().patterns;
  return user.length === 0 ? SECRET_PATTERNS : [...SECRET_PATTERNS, ...user];
}

/** Replaces every credential-shaped run in a line about to be printed with its masked form. */
export function maskCredentialShapes(text: string): string {
  let out = text;
  for (const { pattern } of allPatterns()) out = out.replace(pattern, (m) => `[redacted ${maskSecret(m)}]`);
  return out;
}

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
  for (const { name, pattern } of allPatterns()) {
    for (const m of text.matchAll(pattern)) found.push({ pattern: name, masked: maskSecret(m[0]) });
  }
  return found;
}

export interface SecretFinding extends SecretMatch {
  /** JSON pointer of the string (or object key) that holds the match. */
  pointer: string;
}

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Every secret-shaped string in a JSON value, object keys included, with its JSON pointer. Signed
 * and encrypted reasoning is judged too (a key planted there is still a leak); the patterns'
 * boundaries exclude base64url characters, so a chance `AKIA...` run inside a blob is not one.
 */
export function sweepForSecrets(value: unknown, pointer = '', depth = 0): SecretFinding[] {
  if (typeof value === 'string') return findSecretsInText(value).map((m) => ({ ...m, pointer: pointer || '/' }));
  if (depth > 256) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => sweepForSecrets(v, `${pointer}/${i}`, depth + 1));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => {
      const at = `${pointer}/${escapePointer(k)}`;
      return [...findSecretsInText(k).map((m) => ({ ...m, pointer: at })), ...sweepForSecrets(v, at, depth + 1)];
    });
  }
  return [];
}
