import { readFindingsHeader } from '../../shared/findings/findings-record.js';
import { STANDARD_CARRIER_FIELDS, type History, type Message } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';
import { checkMustEcho, checkRequest, type JudgedBy, type SentRequest } from './cell-checks.js';
import { refusedAsUnknown, widened, whyNotUnknownField, type VerdictLedger } from './judge-fallback.js';
import type { TurnResult } from '../engine-under-test.js';
import type { ExchangeResponse } from '../../shared/transport/transport.js';
import { BEHAVIOURS, type Behaviour, type Check, type ExchangeRecord, type JudgeFinding } from './verdict.js';
import { wireCarrierKeys } from './wire-carriers.js';

/**
 * The exchange judge: one scenario call, every request the engine under test sent for it, and what
 * the provider (mock, or a scripted fault) answered, turned into structured findings. It judges the
 * first attempt against the route the judge read off the table and the provider spec (cell-checks),
 * every retry for what must-echo never drops, reads the mock's own findings from its answer header,
 * and judges the fallback by the judge's own reading of the seed's rules (judge-fallback.ts).
 */
export interface CallUnderJudgement {
  call: number;
  /** The history the requests were built from, and its JSON before the engine saw it. */
  history: History;
  historyBefore: string;
  /** The route the judge expects (read off the table for the target the engine was told). */
  policy: RoutePolicy;
  spec: ProviderSpec;
  turn: TurnResult;
  /** The table's default route, where an unknown-field rejection is what the fallback is for. */
  defaultRouteId: string | undefined;
  table?: RouteTable;
  /** Answers that were scripted faults, not the provider's. */
  injected?: ReadonlySet<ExchangeResponse>;
  /** The verdicts the judge saw this session learn (updated here). */
  ledger?: VerdictLedger;
  /** Whether the engine implements the unknown-field fallback (otherwise it is not judged). */
  judgesFallback?: boolean;
  /** The scenario the call belongs to, named when the mock's findings cannot be read. */
  scenario?: string;
  /** How the engine's choices are judged (cell-checks.ts, SentRequest.judgedBy). */
  judgedBy?: JudgedBy;
  /** SentRequest.boundElsewhere. */
  boundElsewhere?: ReadonlySet<number>;
}

export interface ExchangeJudgement {
  applies: Behaviour[];
  findings: JudgeFinding[];
  exchanges: ExchangeRecord[];
  /** The answer the scenario continues with (the last attempt's), and whether it was accepted. */
  response: ExchangeResponse;
  accepted: boolean;
  /** The last answer was a scripted fault: the run sends the call once more, as the user would. */
  refusedByFault: boolean;
}

export const isOk = (status: number) => status >= 200 && status < 300;

export function errorSummary(response: ExchangeResponse): string {
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
}

const asBehaviour = (rule: string): Behaviour =>
  (BEHAVIOURS as readonly string[]).includes(rule) ? (rule as Behaviour) : 'provider-accepts';

/** A per-request check of cell-checks as a structured finding of this call. */
export function fromCheck(
  check: Check,
  at: { provider: string; route: string; call?: number; attempt?: 1 | 2 },
): JudgeFinding {
  return {
    behaviour: check.behaviour,
    status: check.status === 'n/a' ? 'pass' : check.status,
    ...at,
    detail: check.detail,
  };
}

const STANDARD = new Set<string>(STANDARD_CARRIER_FIELDS);
const sentCarriers = (body: unknown) => wireCarrierKeys(body).filter((k) => STANDARD.has(k));
const attemptOf = (n: number): 1 | 2 => (n === 1 ? 1 : 2);

export function judgeExchange(c: CallUnderJudgement): ExchangeJudgement {
  const { call, history, policy, spec, turn } = c;
  const at = { provider: spec.id, route: policy.routeId, call };
  const applies = new Set<Behaviour>(['history-unmutated', 'provider-accepts']);
  const findings: JudgeFinding[] = [];
  const exchanges: ExchangeRecord[] = [];
  const injected = c.injected ?? new Set<ExchangeResponse>();
  if (JSON.stringify(history) !== c.historyBefore) {
    findings.push({
      behaviour: 'history-unmutated',
      status: 'fail',
      ...at,
      detail: `call ${call}: building the request for route ${policy.routeId} changed the history`,
    });
  }
  const withheld = turn.withheld;
  const faulted = turn.attempts.some((a) => injected.has(a.response));
  for (const attempt of turn.attempts) {
    const fault = injected.has(attempt.response);
    // Decoded once, here: a record that cannot be read stops the run (FindingsRecordError), never reads as "no findings".
    const mock = fault
      ? []
      : readFindingsHeader(
          attempt.response.headers,
          `${spec.label}'s answer to call ${call} (attempt ${attempt.attempt})${c.scenario ? ` of scenario ${c.scenario}` : ''}`,
        );
    exchanges.push({
      call,
      provider: spec.id,
      route: policy.routeId,
      url: spec.endpoint.baseUrl.replace(/\/$/, '') + attempt.request.path,
      status: attempt.response.status,
      sentFields: wireCarrierKeys(attempt.request.body),
      violations: mock.map((f) => f.rule),
      ...(isOk(attempt.response.status) ? {} : { error: attempt.response.body }),
      attempt: attemptOf(attempt.attempt),
    });
    const refused = new Set(STANDARD_CARRIER_FIELDS.filter((f) => c.ledger?.holds(policy.target, f)));
    const sent = {
      call,
      history,
      body: attempt.request.body,
      policy,
      spec,
      ...(c.table ? { table: c.table } : {}),
      ...(refused.size > 0 ? { refused } : {}),
      ...(c.judgedBy ? { judgedBy: c.judgedBy } : {}),
      ...(c.boundElsewhere ? { boundElsewhere: c.boundElsewhere } : {}),
    };
    // The first attempt is what the route table asked for; a retry's omissions are the fallback's
    // intent, except that a must-echo route never drops reasoning_content, not even on a retry.
    if (attempt.attempt === 1) {
      const judged = checkRequest(sent);
      judged.applies.forEach((b) => applies.add(b));
      findings.push(...judged.problems.map((p) => fromCheck(p, { ...at, attempt: 1 })));
      findings.push(...withheldByAnotherKey(sent, c.ledger, at));
    } else if (policy.tier === 'must-echo') {
      findings.push(...checkMustEcho(sent).map((p) => fromCheck(p, { ...at, attempt: 2 })));
    }
    for (const f of mock) {
      const behaviour = asBehaviour(f.rule);
      applies.add(behaviour);
      // An unknown-field rejection on the default route is what the fallback exists for; judged below.
      if (f.rule === 'strict-schema' && policy.routeId === c.defaultRouteId && withheld.length > 0) continue;
      findings.push({
        behaviour,
        // The mock answered a contested rule as its lenient side (docs/decisions/0044): a warning, not a failure.
        status: f.lenient ? 'warn' : 'fail',
        ...at,
        attempt: attemptOf(attempt.attempt),
        ...(f.params.field !== undefined ? { field: String(f.params.field) } : {}),
        ...(spec.rejections[f.rejection]?.sources[0] ? { source: spec.rejections[f.rejection]!.sources[0]! } : {}),
        detail: `call ${call} attempt ${attempt.attempt}: ${spec.label} answered ${attempt.response.status}: ${f.detail ?? f.rejection}${f.contested ? ` (contested rule ${f.rejection}: ${f.lenient ? 'answered as its lenient side, a warning' : 'refused under --strict'}; sources disagree: ${(f.sources ?? []).join(', ')})` : ''}${isOk(attempt.response.status) ? '' : ` — ${errorSummary(attempt.response)}`}`,
      });
    }
  }
  if (c.judgesFallback !== false) findings.push(...judgeRetries(c, at, applies));
  const last = turn.attempts[turn.attempts.length - 1]!.response;
  if (withheld.length > 0 && !injected.has(last)) {
    applies.add('fallback-recovers');
    const note = `call ${call}: ${spec.label} refused ${withheld.join(', ')} as unknown; recorded for (${policy.target.provider}, ${policy.target.host}, ${policy.target.model}) and retried once`;
    findings.push(
      isOk(last.status)
        ? { behaviour: 'fallback-recovers', status: 'pass', ...at, attempt: 2, detail: note }
        : {
            behaviour: 'fallback-recovers',
            status: 'fail',
            ...at,
            attempt: 2,
            detail: `${note}; the retry failed too (${last.status})`,
          },
    );
    // A rejection the run scripted says nothing about the table.
    if (policy.routeId !== c.defaultRouteId && !faulted) {
      findings.push({
        behaviour: 'strict-schema',
        status: 'fail',
        ...at,
        detail: `call ${call}: ${spec.label} rejects a carrier route ${policy.routeId} sends (the fallback withheld ${withheld.join(', ')}): the route table is stale for this route`,
      });
    }
  }
  const refusedByFault = injected.has(last);
  if (
    !isOk(last.status) &&
    !refusedByFault &&
    !findings.some((f) => f.status === 'fail' && f.call === call && f.attempt !== undefined)
  ) {
    findings.push({
      behaviour: 'provider-accepts',
      status: 'fail',
      ...at,
      detail: `call ${call}: ${spec.label} answered ${last.status}: ${errorSummary(last)}`,
    });
  }
  return { applies: [...applies], findings, exchanges, response: last, accepted: isOk(last.status), refusedByFault };
}

/**
 * The fallback, judged by the judge's own reading of the seed's rules: a refusal that counts as an
 * unknown-field rejection is retried exactly once without the refused carriers (and the judge notes
 * the verdict for the target's key); anything else (a 5xx, a 4xx without the phrasing or naming no
 * sent carrier, a must-echo route's complaint about reasoning_content) is not retried at all; a
 * refused retry is never retried again.
 */
function judgeRetries(
  c: CallUnderJudgement,
  at: { provider: string; route: string; call: number },
  applies: Set<Behaviour>,
): JudgeFinding[] {
  const out: JudgeFinding[] = [];
  const { attempts } = c.turn;
  const fail = (detail: string): JudgeFinding => ({
    behaviour: 'fallback-recovers',
    status: 'fail',
    ...at,
    attempt: 2,
    detail,
  });
  for (let k = 0; k < attempts.length; k++) {
    const { request, response } = attempts[k]!;
    if (isOk(response.status)) break;
    const next = attempts[k + 1];
    if (k >= 1) {
      if (next)
        out.push(
          fail(
            `call ${c.call}: the retry was refused (${response.status}) and the engine retried again (attempt ${k + 2}); the fallback retries once, never more`,
          ),
        );
      continue;
    }
    const sent = sentCarriers(request.body);
    const refused = refusedAsUnknown(response.status, response.body, sent, c.policy.tier);
    if (refused.length > 0 || next) applies.add('fallback-recovers');
    if (refused.length === 0) {
      if (next)
        out.push(
          fail(
            `call ${c.call}: ${c.spec.label} answered ${response.status} and the engine retried as if it were an unknown-field rejection, but ${whyNotUnknownField(response.status, response.body, sent, c.policy.tier)} — ${errorSummary(response)}`,
          ),
        );
      continue;
    }
    if (!next) {
      out.push(
        fail(
          `call ${c.call}: ${c.spec.label} refused ${refused.join(', ')} as unknown (${response.status}) and the engine did not retry without it`,
        ),
      );
      continue;
    }
    const still = sentCarriers(next.request.body).filter((f) => (refused as string[]).includes(f));
    if (still.length > 0)
      out.push(
        fail(
          `call ${c.call}: the retry still sent ${still.join(', ')}, which ${c.spec.label} had just refused as unknown`,
        ),
      );
    else c.ledger?.learn(c.policy.target, widened(refused, c.policy.tier));
  }
  return out;
}

/**
 * A carrier the route reads and the history holds, missing from a first attempt: fine when this
 * target's own verdict withholds it, or when nothing does (an engine may send less than the table
 * allows); a fault when the only verdict for it was learned for another (provider, host, model).
 */
function withheldByAnotherKey(
  req: SentRequest,
  ledger: VerdictLedger | undefined,
  at: { provider: string; route: string; call: number },
): JudgeFinding[] {
  if (!ledger || ledger.size === 0 || !Array.isArray(req.body.messages) || !CHAT_FAMILIES.has(req.policy.family))
    return [];
  const out: JudgeFinding[] = [];
  const wire = req.body.messages as Array<Record<string, unknown>>;
  for (const field of req.policy.fields) {
    if (ledger.holds(req.policy.target, field)) continue;
    const other = ledger.otherKeyWith(req.policy.target, field);
    if (!other) continue;
    const missing = req.history.messages.findIndex((m, i) => holdsCarrier(m, field) && wire[i] && !(field in wire[i]!));
    if (missing === -1) continue;
    out.push({
      behaviour: 'fallback-recovers',
      status: 'fail',
      ...at,
      attempt: 1,
      field,
      detail: `call ${req.call}: ${field} was withheld from message ${missing} for (${req.policy.target.provider}, ${req.policy.target.host}, ${req.policy.target.model}), but the only verdict refusing it was learned for ${other}: a verdict is kept per (provider, host, model)`,
    });
  }
  return out;
}

const CHAT_FAMILIES = new Set(['openai-chat', 'copilot']);

/** Does history message `m` hold reasoning that `field` carries? (Readable text, or typed items.) */
function holdsCarrier(m: Message, field: string): boolean {
  if (m.role !== 'assistant') return false;
  if (field === 'reasoning_details') return (m.reasoning_details?.length ?? 0) > 0;
  return (m.reasoning_content ?? '').trim() !== '' || (m.reasoning ?? '').trim() !== '';
}
