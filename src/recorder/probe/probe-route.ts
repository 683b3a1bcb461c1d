import type { FamilyId, RouteTarget } from '../../routes/route-table.js';
import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../model/history.js';
import { replayForRoute } from '../../replay/replay-for-route.js';
import { detectUnknownField } from '../../replay/fallback.js';
import { sentCarrierFields } from '../../replay/fallback.js';
import type { RoutePolicy } from '../../routes/route-table.js';
import { authHeaders } from '../auth-headers.js';
import { endpointUrl } from '../endpoint-url.js';
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
    const message = typeof error?.message === 'string' ? error.message : typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : undefined;
    // MiMo puts the reason in `param` beside a generic "Param Incorrect".
    text = message !== undefined ? (typeof error?.param === 'string' ? `${message}: ${error.param}` : message) : JSON.stringify(body);
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
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
  for (const variant of PROBE_VARIANTS) {
    const policy = variantPolicy(variant, args);
    const request = replayForRoute(history, policy, { tools: PROBE_TOOLS });
    const sent = sentCarrierFields(history, policy, new Set());
    const response = await send(endpointUrl(args.baseUrl, request.path), {
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
      ...(accepted ? {} : { wording: errorWording(body) }),
      unknownField: accepted ? null : detectUnknownField(response.status, body, sent, 'standard'),
      sent,
    });
  }
  return outcomes;
}
