/**
 * Finding a known secret in every spelling it takes on the wire, and replacing exactly its span.
 *
 * A key is rarely only raw: a proxy echoes it JSON-escaped (`\u0073k-...`), a JSON string that
 * holds JSON escapes it twice, a returned URL percent-encodes some or all of it, a request id is
 * its base64. Listing spellings misses mixtures (`%73k-` + raw), so each string is decoded once
 * into a *view* (\u escapes at any depth of backslashes, %XX escapes) that remembers where each
 * decoded character came from; the key is searched in the view and the original span replaced.
 * Base64 is searched as the key's three alignment cores (a key inside a longer base64 text starts
 * at byte offset 0, 1 or 2 of a 3-byte group), in standard and url alphabets.
 */
export interface KnownSecret {
  /** Shown in the marker, e.g. the environment variable name. */
  name: string;
  value: string;
}

export const markerFor = (name: string) => `[redacted-by-recorder:${name}]`;

interface View {
  text: string;
  /** start[i], end[i]: the original span of decoded character i. */
  start: number[];
  end: number[];
}

const HEX = /^[0-9a-fA-F]+$/;

/** Decodes \uXXXX, \" and \/ (behind any number of backslashes) and %XX (ASCII) escapes, keeping positions. */
function decodeView(s: string): View | undefined {
  if (!s.includes('\\') && !s.includes('%')) return undefined;
  const text: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  let changed = false;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === '\\') {
      let j = i;
      while (s[j] === '\\') j++;
      if (s[j] === 'u' && HEX.test(s.slice(j + 1, j + 5)) && s.slice(j + 1, j + 5).length === 4) {
        text.push(String.fromCharCode(parseInt(s.slice(j + 1, j + 5), 16)));
        start.push(i);
        end.push(j + 5);
        i = j + 5;
        changed = true;
        continue;
      }
      // \" and \/ (behind any depth of escaping) stand for the character itself.
      if (s[j] === '"' || s[j] === '/') {
        text.push(s[j]!);
        start.push(i);
        end.push(j + 1);
        i = j + 1;
        changed = true;
        continue;
      }
    } else if (ch === '%' && HEX.test(s.slice(i + 1, i + 3)) && s.slice(i + 1, i + 3).length === 2) {
      const code = parseInt(s.slice(i + 1, i + 3), 16);
      if (code < 0x80) {
        text.push(String.fromCharCode(code));
        start.push(i);
        end.push(i + 3);
        i += 3;
        changed = true;
        continue;
      }
    }
    text.push(ch);
    start.push(i);
    end.push(i + 1);
    i++;
  }
  return changed ? { text: text.join(''), start, end } : undefined;
}

/** The base64 text that encodes `secret` wherever it sits in a longer byte string, per alignment. */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    // Characters before the first whole group of key bytes, and after the last, depend on neighbours.
    const from = offset === 0 ? 0 : 4;
    const to = Math.floor((offset + bytes.length) / 3) * 4;
    const core = encoded.slice(from, to);
    if (core.length >= 16) {
      cores.add(core);
      cores.add(core.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  // The whole encoding, padding included, when it stands alone.
  cores.add(bytes.toString('base64'));
  cores.add(bytes.toString('base64url'));
  return [...cores].sort((a, b) => b.length - a.length);
}

export interface SecretForms {
  secret: KnownSecret;
  marker: string;
  base64: string[];
}

export function secretForms(secrets: readonly KnownSecret[]): SecretForms[] {
  return secrets
    .filter((s) => s.value.length > 0)
    .map((secret) => ({ secret, marker: markerFor(secret.name), base64: base64Cores(secret.value) }));
}

function replaceAllSpans(s: string, spans: Array<[number, number, string]>): string {
  if (spans.length === 0) return s;
  let out = '';
  let at = 0;
  for (const [from, to, marker] of spans) {
    if (from < at) continue; // overlapping match: already inside a replaced span
    out += s.slice(at, from) + marker;
    at = to;
  }
  return out + s.slice(at);
}

/** Every span [from, to) of `s` that spells a secret, with its marker (overlaps possible). */
export function findSecretSpans(s: string, forms: readonly SecretForms[]): Array<[number, number, string]> {
  const spans: Array<[number, number, string]> = [];
  if (forms.length === 0 || s.length === 0) return spans;
  const find = (needle: string, marker: string) => {
    for (let at = s.indexOf(needle); at >= 0; at = s.indexOf(needle, at + 1))
      spans.push([at, at + needle.length, marker]);
  };
  for (const { secret, marker, base64 } of forms) {
    find(secret.value, marker);
    for (const core of base64) find(core, marker);
  }
  const view = decodeView(s);
  if (view) {
    for (const { secret, marker } of forms) {
      for (let at = view.text.indexOf(secret.value); at >= 0; at = view.text.indexOf(secret.value, at + 1)) {
        spans.push([view.start[at]!, view.end[at + secret.value.length - 1]!, marker]);
      }
    }
  }
  return mergeSpans(spans);
}

/** Sorted, overlapping spans joined (the longest reach wins), so each byte is replaced once. */
function mergeSpans(spans: Array<[number, number, string]>): Array<[number, number, string]> {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Array<[number, number, string]> = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([...span]);
  }
  return out;
}

/** Replaces every spelling of every secret in one string. Returns the same string when nothing matched. */
export function redactKnownSecrets(s: string, forms: readonly SecretForms[]): string {
  return replaceAllSpans(s, findSecretSpans(s, forms));
}

/** Whether any spelling of any secret is in `s` (for strings that must not be altered). */
export function containsKnownSecret(s: string, forms: readonly SecretForms[]): boolean {
  return findSecretSpans(s, forms).length > 0;
}
