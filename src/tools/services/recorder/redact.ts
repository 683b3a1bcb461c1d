import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isOpaqueField } from './opaque-fields.js';
import { redactKnownSecrets, secretForms } from './secret-forms.js';
import { maskCredentialShapes } from './secret-patterns.js';

/**
 * Redaction runs on the captured exchange in memory, before anything is serialized: nothing that
 * reaches disk has ever held a credential. Three passes, in order:
 *  1. credential headers by name (request and response alike: providers echo keys back, and
 *     set-cookie carries session tokens);
 *  2. credential query parameters (`?key=` for Gemini, presigned SigV4 parameters);
 *  3. every occurrence of a known secret value (the provider's key environment variable) in any
 *     string anywhere: headers, URL, bodies, stream event data, even object keys.
 * Reasoning payloads (signatures, encrypted_content, redacted data) are left alone: they are opaque
 * to us, not credentials, and only work when replayed byte for byte.
 * The marker is not OpenRouter's `[REDACTED]`: that one is provider content (encrypted reasoning
 * in a stream) and must stay distinguishable from what the recorder removed.
 */
export const REDACTED = '[redacted-by-recorder]';

export interface SecretValue {
  /** Where the value came from, e.g. the environment variable name; shown in the marker. */
  name: string;
  value: string;
}

/** Headers whose whole value is a credential. */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'x-amz-security-token',
  'x-amz-credential',
  'x-amz-signature',
]);

/** Query parameters whose value is a credential (compared case-insensitively). */
const CREDENTIAL_PARAMS = new Set([
  'key',
  'api_key',
  'apikey',
  'api-key',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'code',
  'sig',
  'signature',
  'auth',
  'password',
  'passwd',
  'pwd',
  'secret',
  'client_secret',
  'session',
  'sessionid',
  'jwt',
  'credential',
  'credentials',
  'x-amz-credential',
  'x-amz-signature',
  'x-amz-security-token',
  'x-goog-api-key',
  'subscription-key',
  'private_token',
]);
/** Any parameter whose name says it holds one (`upstream_token`, `hmac_sig`, `db_password`, ...). */
const isCredentialParam = (name: string) =>
  CREDENTIAL_PARAMS.has(name) || /(token|secret|passw|api[-_]?key|signature|credential)/.test(name);

const isSigV4Authorization = (value: string | undefined) =>
  value !== undefined && /^AWS4-HMAC-SHA256\b/i.test(value.trim());

/** Keeps the auth scheme (it tells a reader how the provider authenticates) and drops the credential. */
function redactAuthorization(value: string): string {
  const scheme = /^\s*(Bearer|Basic|AWS4-HMAC-SHA256|Token)\b/i.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/**
 * Cookies keep their names and lose their values: a replaying mock (msw parses set-cookie) needs a
 * well-formed cookie, and the names say what the provider set. Several set-cookie values arrive
 * joined by ", " (fetch's Headers); a comma inside an Expires date is not followed by `name=`.
 */
function redactCookies(value: string, header: 'cookie' | 'set-cookie'): string {
  const parts = header === 'cookie' ? value.split(/;\s*/) : value.split(/,\s*(?=[^;,=\s]+=)/);
  return parts
    .filter((p) => p.trim() !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq > 0 ? `${p.slice(0, eq).trim()}=${REDACTED}` : REDACTED;
    })
    .join(header === 'cookie' ? '; ' : ', ');
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  // X-Amz-Date is no secret alone, but beside a SigV4 signature it is one of the signed inputs.
  const signed = isSigV4Authorization(lower['authorization']) || lower['x-amz-signature'] !== undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (key === 'authorization' || key === 'proxy-authorization') out[name] = redactAuthorization(value);
    else if (key === 'cookie' || key === 'set-cookie') out[name] = redactCookies(value, key);
    else if (CREDENTIAL_HEADERS.has(key) || (signed && key === 'x-amz-date')) out[name] = REDACTED;
    else out[name] = value;
  }
  return out;
}

/** `scheme://user:password@host` loses the user info (both halves: a user name can be a token). */
export function redactUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]+@/i, `$1${REDACTED}@`);
}

/** Rewrites user info and credential query parameters, leaving every other byte of the URL as it was sent. */
export function redactUrl(url: string): string {
  url = redactUserinfo(url);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hashAt = url.indexOf('#', q);
  const query = url.slice(q + 1, hashAt < 0 ? undefined : hashAt);
  const names = query.split('&').map((p) => safeDecode(p.split('=')[0] ?? '').toLowerCase());
  const signed = names.includes('x-amz-signature');
  const params = query.split('&').map((part, i) => {
    const name = names[i]!;
    const eq = part.indexOf('=');
    if (eq < 0) return part;
    return isCredentialParam(name) || (signed && name === 'x-amz-date') ? `${part.slice(0, eq)}=${REDACTED}` : part;
  });
  return url.slice(0, q + 1) + params.join('&') + (hashAt < 0 ? '' : url.slice(hashAt));
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Replaces every spelling of every secret value (raw, JSON-escaped at any depth, percent-encoded,
 * base64 in either alphabet: see secret-forms.ts) in every string of `value`, object keys too.
 * Signed and encrypted reasoning is never altered (opaque-fields.ts); the recorder refuses keys
 * too short for that to be safe (api-key.ts), so a long key inside one would be a real leak, which
 * the sweep reports.
 */
export function redactSecretValues<T>(value: T, secrets: readonly SecretValue[]): T {
  const forms = secretForms(secrets);
  if (forms.length === 0) return value;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return redactKnownSecrets(v, forms);
    if (depth > 256) return v; // validation refuses deeper values; never recurse without end
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [redactKnownSecrets(k, forms), isOpaqueField(k, v) ? x : walk(x, depth + 1)]),
      );
    }
    return v;
  };
  return walk(value, 0) as T;
}

/**
 * A line about to be printed (an error body, a URL, a provider's wording): known secrets in every
 * spelling, URL user info and credential parameters, and anything credential-shaped are masked.
 */
export function redactText(text: string, secrets: readonly SecretValue[] = []): string {
  let out = redactKnownSecrets(text, secretForms(secrets));
  // Punctuation that ends a sentence after a URL is not part of it ("call 0 to https://h/p?key=k: ...").
  out = out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => {
    const tail = /[.,:;)\]]+$/.exec(url)?.[0] ?? '';
    return redactUrl(url.slice(0, url.length - tail.length)) + tail;
  });
  return maskCredentialShapes(out);
}

/** The parts of a captured exchange redaction touches (the fixture schema's exchange shape). */
export interface RedactableExchange {
  request?: { method: string; url: string; headers?: Record<string, string>; body: unknown };
  response: { status: number; headers?: Record<string, string>; body?: unknown; stream?: { events: SseEvent[] } };
  carriers?: Record<string, unknown>;
}

export function redactExchange<X extends RedactableExchange>(exchange: X, secrets: readonly SecretValue[]): X {
  const out: X = { ...exchange, response: { ...exchange.response } };
  if (exchange.request) {
    out.request = { ...exchange.request, url: redactUrl(exchange.request.url) };
    if (exchange.request.headers) out.request.headers = redactHeaders(exchange.request.headers);
  }
  if (exchange.response.headers) out.response.headers = redactHeaders(exchange.response.headers);
  return redactSecretValues(out, secrets);
}
