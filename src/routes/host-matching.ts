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

/**
 * Equal, or a subdomain: `eu.api.mistral.ai` matches `mistral.ai`; `nousresearch.com.evil.io` does
 * not match `nousresearch.com`, and neither does `notmistral.ai`.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const h = normalizeHost(host);
  const p = normalizeHost(pattern);
  return h === p || h.endsWith(`.${p}`);
}

/** Loopback, unspecified, RFC 1918 private, link-local and mDNS hosts: where self-hosted servers live. */
export function isLocalHost(host: string): boolean {
  const h = normalizeHost(host);
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local')) return true;
  if (h === '::1' || h === '::' || h === '0.0.0.0') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (!v4) return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe80:/.test(h);
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}
