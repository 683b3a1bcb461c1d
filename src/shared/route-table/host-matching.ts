import ipaddr from 'ipaddr.js';

/** Lowercases, strips brackets, a port and a trailing dot: `[::1]:8080` -> `::1`, `API.X.com.` -> `api.x.com`. */
export function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.includes('://')) {
    try {
      h = new URL(h).hostname;
    } catch {
      /* keep as given */
    }
  }
  if (h.startsWith('[')) h = h.slice(1, h.indexOf(']') === -1 ? undefined : h.indexOf(']'));
  else if (/^[^:]+:\d+$/.test(h)) h = h.slice(0, h.lastIndexOf(':'));
  return h.replace(/\.$/, '');
}

/** One DNS label (what a `*-` host pattern stands for): a region name such as `europe-west4`. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * Equal, or a subdomain: `eu.api.mistral.ai` matches `mistral.ai`; `nousresearch.com.evil.io` does
 * not match `nousresearch.com`, and neither does `notmistral.ai`.
 *
 * A pattern `*-rest.example.com` stands for one label ending in `-rest` directly under
 * `example.com`: Vertex AI's regional endpoints are `{region}-aiplatform.googleapis.com`, which are
 * siblings of the global `aiplatform.googleapis.com`, not subdomains of it.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const h = normalizeHost(host);
  if (pattern.startsWith('*-')) {
    const suffix = normalizeHost(pattern.slice(1));
    if (!h.endsWith(suffix)) return false;
    const label = h.slice(0, -suffix.length);
    return label.length > 0 && LABEL.test(label);
  }
  const p = normalizeHost(pattern);
  return h === p || h.endsWith(`.${p}`);
}

/**
 * Address ranges where self-hosted servers live, by ipaddr.js range name: loopback (127/8, ::1),
 * RFC 1918 private, link-local (169.254/16, fe80::/10), CGNAT 100.64/10 (Tailscale hands its
 * nodes addresses there), IPv6 unique-local fc00::/7 and the unspecified address (0.0.0.0, ::),
 * which clients connect to as the local machine.
 */
const LOCAL_RANGES: ReadonlySet<string> = new Set([
  'loopback',
  'private',
  'linkLocal',
  'carrierGradeNat',
  'uniqueLocal',
  'unspecified',
]);

/**
 * Names that never resolve on the public internet: `localhost` and `*.localhost` (RFC 6761),
 * `*.local` (mDNS, RFC 6762), `*.internal` (reserved for private use by ICANN in 2024; Docker's
 * `host.docker.internal`, GCE/EC2 internal DNS), `*.home.arpa` (RFC 8375).
 */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];

/**
 * Answers already worked out, by host as given: every route with `local: true` asks again for every
 * target on every turn, and ipaddr's parse is a large regular expression. A table names a few dozen
 * hosts, so the memo stays small; it is emptied if it ever grows past its bound.
 */
const localKindMemo = new Map<string, string | undefined>();
const LOCAL_KIND_MEMO_BOUND = 1024;

/** The kind of local address a host is, or undefined for a public one (used in messages and tests). */
export function localHostKind(host: string): string | undefined {
  if (localKindMemo.has(host)) return localKindMemo.get(host);
  if (localKindMemo.size >= LOCAL_KIND_MEMO_BOUND) localKindMemo.clear();
  const kind = computeLocalHostKind(host);
  localKindMemo.set(host, kind);
  return kind;
}

function computeLocalHostKind(host: string): string | undefined {
  const h = normalizeHost(host);
  if (h === '') return undefined;
  if (ipaddr.isValid(h)) {
    // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 one it carries.
    const range = ipaddr.process(h).range();
    return LOCAL_RANGES.has(range) ? range : undefined;
  }
  const suffix = LOCAL_SUFFIXES.find((s) => h === s || h.endsWith(`.${s}`));
  if (suffix) return `.${suffix}`;
  // A dot-less name is resolved by a search domain or a container network (`ollama` in a compose
  // file), never by public DNS.
  if (!h.includes('.') && !h.includes(':')) return 'dotless';
  return undefined;
}

/** Loopback, private, link-local, CGNAT, ULA addresses and private names: where self-hosted servers live. */
export function isLocalHost(host: string): boolean {
  return localHostKind(host) !== undefined;
}
