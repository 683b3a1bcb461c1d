import type { RequestOptions } from '../families/family.js';
import { familyFor } from '../families/registry.js';
import type { Message } from '../../shared/history/history.js';
import { sendWithFallback, type FallbackResult, type Transport, type TransportResponse } from '../replay/fallback.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import type { SessionStore } from './session-store.js';

export interface SendSessionTurnArgs {
  store: SessionStore;
  sessionId: number;
  policy: RoutePolicy;
  transport: Transport;
  options?: RequestOptions;
  /** The messages a 2xx answer adds to the session; default: the route family's fromResponse. */
  readAnswer?: (response: TransportResponse, policy: RoutePolicy) => Message[];
}

export interface SessionTurnResult extends FallbackResult {
  /** Where the answer went, when the provider accepted the request. */
  appended?: { exchange: number; firstSeq: number; lastSeq: number };
}

const defaultReadAnswer = (response: TransportResponse, policy: RoutePolicy): Message[] => [
  familyFor(policy.family).fromResponse(response.body).message,
];

/**
 * One turn of a stored session: resume it (history and the verdicts it learned), send through the
 * unknown-field fallback, then write the answer AND any new verdict in one transaction, or, when the
 * provider still refused, the new verdict alone. A later resume therefore withholds the refused field
 * from its first request instead of meeting the same 400 again.
 */
export async function sendSessionTurn(args: SendSessionTurnArgs): Promise<SessionTurnResult> {
  const { store, sessionId, policy, transport, options } = args;
  const resumed = store.resume(sessionId);
  const result = await sendWithFallback({
    history: resumed.history,
    policy,
    options,
    verdicts: resumed.verdicts,
    transport,
  });
  if (result.response.status >= 200 && result.response.status < 300) {
    const answer = (args.readAnswer ?? defaultReadAnswer)(result.response, policy);
    return { ...result, appended: store.appendExchange(sessionId, answer, { verdicts: resumed.verdicts }) };
  }
  if (result.recorded.length > 0) store.saveVerdicts(sessionId, resumed.verdicts);
  return result;
}
