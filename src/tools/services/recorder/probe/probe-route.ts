import type { FamilyId, RouteTarget } from '../../../../shared/route-table/route-table.js';
import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../../../shared/history/history.js';
import { replayForRoute } from '../../../../engine/replay/replay-for-route.js';
import { detectUnknownField } from '../../../../engine/replay/fallback.js';
import { sentCarrierFields } from '../../../../engine/replay/fallback.js';
import type { RoutePolicy } from '../../../../shared/route-table/route-table.js';
import { authHeaders } from '../auth-headers.js';
import { endpointUrl } from '../endpoint-url.js';
import { redactText } from '../redact.js';
import { PROBE_TOOLS, probeHistory } from './probe-turn.js';

export type ProbeVariant = StandardCarrierField | 'none';
export const PROBE_VARIANTS: readonly ProbeVariant[] = [...STANDARD_CARRIER_FIELDS, 'none'];

export interface ProbeOutcome {
  variant: ProbeVariant;
  status: number;
  accepted: boolean;
  /** The provider's own words when it refused (trimmed), for the report and the row's notes. */
  wording?: string;
  /** Fields the shared unknown-field detection reads out of the refusal; null when it is not one. */
  unknownField: StandardCarrierField[] | null;
  /** Carrier fields the request really carried (none for the `none` variant). */
  sent: StandardCarrierField[];
}

export interface ProbeArgs {
  baseUrl: string;
  family: FamilyId;
  target: RouteTarget;
  /** The current route's vendor flags (thinking switches), so the endpoint is in the same mode as in use. */
  flags?: Record<string, unknown>;
  apiKey?: string;
  fetch?: typeof fetch;
}

/** The message a person should read from an error body, whatever envelope the provider uses. */
export function errorWording(body: unknown): string {
  let text: string;
  if (typeof body === 'string') text = body;
  else {
    const error = (body as { error?: { message?: unknown; param?: unknown } } | null)?.error;
    const message =
      typeof error?.message === 'string'
        ? error.message
        : typeof (body as { message?: unknown })?.message === 'string'
          ? (body as { message: string }).message
          : undefined;
    // MiMo puts the reason in `param` beside a generic "Param Incorrect".
    text =
      message !== undefined
        ? typeof error?.param === 'string'
          ? `${message}: ${error.param}`
          : message
        : JSON.stringify(body);
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Headers that carry a credential and must never follow a redirect to another origin. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
  'x-amz-security-token',
  'anthropic-api-key',
  'openai-api-key',
];
const MAX_REDIRECTS = 5;

/**
 * fetch strips only Authorization on a cross-origin redirect; the key travels in x-api-key
 * (Anthropic), x-goog-api-key (Gemini) or api-key (Azure) too. Redirects are followed by hand:
 * every credential header is dropped once the origin changes, and a 303 becomes a GET as in fetch.
 */
export async function fetchFollowingSafely(send: typeof fetch, url: string, init: RequestInit): Promise<Response> {
  let current = url;
  let headers = new Headers(init.headers);
  let method = init.method ?? 'GET';
  let body = init.body;
  const origin = new URL(url).origin;
  for (let hop = 0; ; hop++) {
    const response = await send(current, { ...init, method, headers, body: body ?? null, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location || hop >= MAX_REDIRECTS)
      return response;
    await response.body?.cancel();
    const next = new URL(location, current);
    if (next.origin !== origin) {
      headers = new Headers(headers);
      for (const name of CREDENTIAL_HEADERS) headers.delete(name);
    }
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    current = next.toString();
  }
}

/** A policy that sends exactly one carrier (or none) and nothing else the tier logic would add. */
function variantPolicy(variant: ProbeVariant, args: ProbeArgs): RoutePolicy {
  return {
    routeId: `probe:${variant}`,
    label: `probe sending ${variant}`,
    family: args.family,
    tier: 'standard',
    fields: variant === 'none' ? [] : [variant],
    flags: args.flags ?? {},
    target: args.target,
  };
}

/**
 * Sends the minimal tool turn once per variant, in order, and reports what the endpoint did with
 * each. Requests are built by the replay engine, so the probe sees the bytes real traffic carries.
 */
export async function probeRoute(args: ProbeArgs): Promise<ProbeOutcome[]> {
  const send = args.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const history = probeHistory();
  const auth = authHeaders(args.family, args.apiKey, args.target.host);
  const outcomes: ProbeOutcome[] = [];
  const secrets = args.apiKey ? [{ name: 'API_KEY', value: args.apiKey }] : [];
  for (const variant of PROBE_VARIANTS) {
    const policy = variantPolicy(variant, args);
    const request = replayForRoute(history, policy, { tools: PROBE_TOOLS });
    const sent = sentCarrierFields(history, policy, new Set());
    const response = await fetchFollowingSafely(send, endpointUrl(args.baseUrl, request.path), {
      method: request.method,
      headers: { ...request.headers, ...auth },
      body: JSON.stringify(request.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* a text body stays text */
    }
    const accepted = response.status >= 200 && response.status < 300;
    outcomes.push({
      variant,
      status: response.status,
      accepted,
      // The provider's wording can quote the key ("Incorrect API key provided: sk-..."): never printed raw.
      ...(accepted ? {} : { wording: redactText(errorWording(body), secrets) }),
      unknownField: accepted ? null : detectUnknownField(response.status, body, sent, 'standard'),
      sent,
    });
  }
  return outcomes;
}
