import { FINDINGS_HEADER, type Finding as MockFinding } from '../../shared/findings/finding.js';
import type { History } from '../../shared/history/history.js';
import { specHost, type ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';
import { checkRequest } from './cell-checks.js';
import type { TurnResult } from '../engine-under-test.js';
import type { ExchangeResponse } from '../../shared/transport/transport.js';
import { BEHAVIOURS, type Behaviour, type Check, type ExchangeRecord, type JudgeFinding } from './verdict.js';
import { wireCarrierKeys } from './wire-carriers.js';

/**
 * The exchange judge: one scenario call, every request the engine under test sent for it, and what
 * the provider (mock) answered, turned into structured findings. It judges the first attempt
 * against the route table and the provider spec (cell-checks), reads the mock's own findings from
 * its answer header, and judges the fallback's retry by its outcome.
 */
export interface CallUnderJudgement {
  call: number;
  /** The history the requests were built from, and its JSON before the engine saw it. */
  history: History;
  historyBefore: string;
  policy: RoutePolicy;
  spec: ProviderSpec;
  turn: TurnResult;
  /** The table's default route, where an unknown-field rejection is what the fallback is for. */
  defaultRouteId: string | undefined;
}

export interface ExchangeJudgement {
  applies: Behaviour[];
  findings: JudgeFinding[];
  exchanges: ExchangeRecord[];
  /** The answer the scenario continues with (the last attempt's), and whether it was accepted. */
  response: ExchangeResponse;
  accepted: boolean;
}

export const isOk = (status: number) => status >= 200 && status < 300;

function mockFindingsOf(response: ExchangeResponse): MockFinding[] {
  const raw = response.headers[FINDINGS_HEADER];
  if (!raw) return [];
  try {
    return JSON.parse(raw) as MockFinding[];
  } catch {
    return [];
  }
}

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

export function judgeExchange(c: CallUnderJudgement): ExchangeJudgement {
  const { call, history, policy, spec, turn } = c;
  const at = { provider: spec.id, route: policy.routeId, call };
  const applies = new Set<Behaviour>(['history-unmutated', 'provider-accepts']);
  const findings: JudgeFinding[] = [];
  const exchanges: ExchangeRecord[] = [];
  if (JSON.stringify(history) !== c.historyBefore) {
    findings.push({
      behaviour: 'history-unmutated',
      status: 'fail',
      ...at,
      detail: `call ${call}: building the request for route ${policy.routeId} changed the history`,
    });
  }
  const withheld = turn.withheld;
  for (const attempt of turn.attempts) {
    const mock = mockFindingsOf(attempt.response);
    exchanges.push({
      call,
      provider: spec.id,
      route: policy.routeId,
      url: spec.endpoint.baseUrl.replace(/\/$/, '') + attempt.request.path,
      status: attempt.response.status,
      sentFields: wireCarrierKeys(attempt.request.body),
      violations: mock.map((f) => f.rule),
      ...(isOk(attempt.response.status) ? {} : { error: attempt.response.body }),
      attempt: attempt.attempt,
    });
    // The first attempt is what the route table asked for; the retry's omissions are the fallback's
    // intent and are judged as fallback-recovers below.
    if (attempt.attempt === 1) {
      const judged = checkRequest({ call, history, body: attempt.request.body, policy, spec });
      judged.applies.forEach((b) => applies.add(b));
      findings.push(...judged.problems.map((p) => fromCheck(p, { ...at, attempt: 1 })));
    }
    for (const f of mock) {
      const behaviour = asBehaviour(f.rule);
      applies.add(behaviour);
      // An unknown-field rejection on the default route is what the fallback exists for; judged below.
      if (f.rule === 'strict-schema' && policy.routeId === c.defaultRouteId && withheld.length > 0) continue;
      findings.push({
        behaviour,
        // A rule whose public sources disagree warns instead of failing (the mock still answers the stricter reading).
        status: f.contested ? 'warn' : 'fail',
        ...at,
        attempt: attempt.attempt,
        ...(f.params.field !== undefined ? { field: String(f.params.field) } : {}),
        ...(spec.rejections[f.rejection]?.sources[0] ? { source: spec.rejections[f.rejection]!.sources[0]! } : {}),
        detail: `call ${call} attempt ${attempt.attempt}: ${spec.label} answered ${attempt.response.status}: ${f.detail ?? f.rejection}${f.contested ? ' (contested: public sources disagree)' : ''} — ${errorSummary(attempt.response)}`,
      });
    }
  }
  const last = turn.attempts[turn.attempts.length - 1]!.response;
  if (withheld.length > 0) {
    applies.add('fallback-recovers');
    const note = `call ${call}: ${spec.label} refused ${withheld.join(', ')} as unknown; recorded for (${policy.target.provider}, ${specHost(spec)}, ${policy.target.model}) and retried once`;
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
    if (policy.routeId !== c.defaultRouteId) {
      findings.push({
        behaviour: 'strict-schema',
        status: 'fail',
        ...at,
        detail: `call ${call}: ${spec.label} rejects a carrier route ${policy.routeId} sends (the fallback withheld ${withheld.join(', ')}): the route table is stale for this route`,
      });
    }
  }
  if (!isOk(last.status) && !findings.some((f) => f.status === 'fail' && f.call === call && f.attempt !== undefined)) {
    findings.push({
      behaviour: 'provider-accepts',
      status: 'fail',
      ...at,
      detail: `call ${call}: ${spec.label} answered ${last.status}: ${errorSummary(last)}`,
    });
  }
  return { applies: [...applies], findings, exchanges, response: last, accepted: isOk(last.status) };
}
