import type { OutboundRequest, RequestOptions } from '../families/family.js';
import { STANDARD_CARRIER_FIELDS, type History, type StandardCarrierField } from '../../shared/history/history.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { detectUnknownField } from './detect-unknown-field.js';
import { replayForRoute } from './replay-for-route.js';
import { selectCarriers } from '../policy/select-carriers.js';
import type { UnknownFieldPhrasings } from './unknown-field-phrasings.js';
import type { UnknownFieldVerdicts } from './unknown-field-verdicts.js';

export { detectUnknownField } from './detect-unknown-field.js';

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type Transport = (request: OutboundRequest) => Promise<TransportResponse>;

export interface FallbackAttempt {
  attempt: 1 | 2;
  request: OutboundRequest;
  response: TransportResponse;
  /** Carrier fields withheld from this request (recorded verdicts plus the caller's own omit). */
  omitted: StandardCarrierField[];
  /** Carrier fields this request carried on at least one message. */
  sentFields: StandardCarrierField[];
}

export interface FallbackResult {
  attempts: FallbackAttempt[];
  /** The last response: what the caller acts on. */
  response: TransportResponse;
  /** Fields newly recorded as unknown for this target by this call (empty when none). */
  recorded: StandardCarrierField[];
  /** True when the single retry was itself rejected: returned, never retried again. */
  retryRejected: boolean;
}

export interface SendWithFallbackArgs {
  history: History;
  policy: RoutePolicy;
  options?: RequestOptions;
  verdicts: UnknownFieldVerdicts;
  transport: Transport;
  phrasings?: UnknownFieldPhrasings;
}

/**
 * The carrier fields a request built with `omit` would carry. Computed from the shared tier logic,
 * not from the body, so it holds for every wire family (an Anthropic body calls them otherwise).
 */
export function sentCarrierFields(
  history: History,
  policy: RoutePolicy,
  omit: ReadonlySet<StandardCarrierField>,
): StandardCarrierField[] {
  const sent = new Set<StandardCarrierField>();
  for (const message of history.messages) {
    const selected = selectCarriers(message, policy, omit);
    for (const field of STANDARD_CARRIER_FIELDS) if (selected[field] !== undefined) sent.add(field);
  }
  return STANDARD_CARRIER_FIELDS.filter((f) => sent.has(f));
}

const isOk = (status: number) => status >= 200 && status < 300;

/**
 * Sends one turn's request; on an unknown-field rejection of a sent carrier, records the verdict for
 * (provider, host, model) and retries exactly once without those fields. At most two requests, the
 * history is only read, and a rejection of the retry goes back to the caller.
 */
export async function sendWithFallback(args: SendWithFallbackArgs): Promise<FallbackResult> {
  const { history, policy, options = {}, verdicts, transport, phrasings } = args;
  const target = policy.target;
  const attempts: FallbackAttempt[] = [];

  const attempt = async (n: 1 | 2): Promise<FallbackAttempt> => {
    const omit = new Set<StandardCarrierField>([...(options.omit ?? []), ...verdicts.fieldsFor(target)]);
    const request = replayForRoute(history, policy, { ...options, omit });
    const sentFields = sentCarrierFields(history, policy, omit);
    const response = await transport(request);
    const record: FallbackAttempt = {
      attempt: n,
      request,
      response,
      omitted: STANDARD_CARRIER_FIELDS.filter((f) => omit.has(f)),
      sentFields,
    };
    attempts.push(record);
    return record;
  };

  const first = await attempt(1);
  if (isOk(first.response.status)) return { attempts, response: first.response, recorded: [], retryRejected: false };

  const refused = detectUnknownField(
    first.response.status,
    first.response.body,
    first.sentFields,
    policy.tier,
    phrasings,
  );
  if (!refused) return { attempts, response: first.response, recorded: [], retryRejected: false };
  const recorded = verdicts.record(target, refused);

  const second = await attempt(2);
  return { attempts, response: second.response, recorded, retryRejected: !isOk(second.response.status) };
}
