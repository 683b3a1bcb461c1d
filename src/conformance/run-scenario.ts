import { familyFor } from '../families/registry.js';
import type { OutboundRequest } from '../families/family.js';
import { CALL_HEADER, FINDINGS_HEADER, SCENARIO_HEADER, type Finding } from '../mocks/finding.js';
import type { FixtureStore } from '../mocks/fixture-store.js';
import type { History, Message } from '../model/history.js';
import { specHost, type ProviderSpec } from '../providers/provider-spec.js';
import { sendWithFallback, type Transport, type TransportResponse } from '../replay/fallback.js';
import { UnknownFieldVerdicts } from '../replay/unknown-field-verdicts.js';
import { policyFor } from '../routes/policy-for.js';
import type { RoutePolicy, RouteTable } from '../routes/route-table.js';
import type { Scenario } from '../scenarios/scenario.js';
import { checkRequest } from './cell-checks.js';
import { BEHAVIOURS, cellStatus, type Behaviour, type CellVerdict, type Check, type ExchangeRecord } from './verdict.js';
import { wireCarrierKeys } from './wire-carriers.js';

/** Where one call goes and how it is sent; the default goes through global fetch (which msw intercepts). */
export type ScenarioTransport = (request: OutboundRequest, spec: ProviderSpec, meta: { scenario: string; call: number }) => Promise<TransportResponse>;

export interface ScenarioRunContext {
  table: RouteTable;
  specs: ReadonlyMap<string, ProviderSpec>;
  fixtures?: FixtureStore;
  /** Ask for streamed answers and read them through the family's StreamCarriers. */
  stream?: boolean;
  send?: ScenarioTransport;
  /** Deadline per exchange in ms for the default fetch transport (ignored when `send` is given). */
  timeoutMs?: number;
  /** Per-cell retention checks (compaction, branch, resume) on the final history. */
  retention?: (history: History, policy: RoutePolicy) => Check[];
}

export interface ScenarioRun {
  verdict: CellVerdict;
  history: History;
}

/** Reads a fetch Response into the transport shape: JSON when it parses, the raw text otherwise (SSE). */
export async function readResponse(response: Response): Promise<TransportResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const text = await response.text();
  let body: unknown = text;
  if (!(headers['content-type'] ?? '').includes('event-stream')) {
    try {
      body = JSON.parse(text);
    } catch {
      /* a text body stays text */
    }
  }
  return { status: response.status, headers, body };
}

/**
 * Settles with `work` or rejects with the signal's reason, whichever comes first. fetch's own signal
 * is not enough: a body served by msw keeps streaming after the signal fires (a real socket stops).
 */
function within<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function sendOverFetch(request: OutboundRequest, spec: ProviderSpec, meta: { scenario: string; call: number }, signal?: AbortSignal): Promise<TransportResponse> {
  const exchange = async () => {
    const response = await fetch(spec.endpoint.baseUrl.replace(/\/$/, '') + request.path, {
      method: request.method,
      headers: { ...request.headers, [SCENARIO_HEADER]: meta.scenario, [CALL_HEADER]: String(meta.call) },
      body: JSON.stringify(request.body),
      ...(signal ? { signal } : {}),
    });
    return readResponse(response);
  };
  return within(exchange(), signal);
}

export const fetchTransport: ScenarioTransport = (request, spec, meta) => sendOverFetch(request, spec, meta);

/**
 * fetchTransport with a deadline on the whole exchange, body included: a provider that stalls
 * mid-stream fails that call (reported as "could not be sent") instead of hanging the run.
 */
export function fetchTransportWithin(timeoutMs: number): ScenarioTransport {
  return (request, spec, meta) => sendOverFetch(request, spec, meta, AbortSignal.timeout(timeoutMs));
}

function findingsOf(response: TransportResponse): Finding[] {
  const raw = response.headers[FINDINGS_HEADER];
  if (!raw) return [];
  try {
    return JSON.parse(raw) as Finding[];
  } catch {
    return [];
  }
}

function errorSummary(response: TransportResponse): string {
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
}

function readAnswer(spec: ProviderSpec, policy: RoutePolicy, response: TransportResponse): Message {
  const family = familyFor(policy.family);
  if (typeof response.body === 'string' && (response.headers['content-type'] ?? '').includes('event-stream')) {
    if (!family.streamCarriers) throw new Error(`the ${policy.family} family cannot read streams yet`);
    const carriers = family.streamCarriers(policy);
    carriers.feed(response.body);
    return carriers.end().message;
  }
  return family.fromResponse(response.body, policy).message;
}

const isOk = (status: number) => status >= 200 && status < 300;

/**
 * Runs one scenario against one provider target through the route the table resolves for it, and
 * judges every request. Calls stop at the first the provider refuses: later turns would only
 * repeat the same failure.
 */
export async function runScenario(scenario: Scenario, spec: ProviderSpec, context: ScenarioRunContext): Promise<ScenarioRun> {
  const send = context.send ?? (context.timeoutMs !== undefined ? fetchTransportWithin(context.timeoutMs) : fetchTransport);
  const targetPolicy = policyFor(context.table, spec);
  const defaultRouteId = context.table.routes.find((r) => r.match.default)?.id;
  const history: History = { messages: [] };
  const verdicts = new UnknownFieldVerdicts();
  const problems: Check[] = [];
  const applies = new Set<Behaviour>();
  const exchanges: ExchangeRecord[] = [];
  let call = 0;

  for (const step of scenario.steps) {
    if ('append' in step) {
      history.messages.push(structuredClone(step.append));
      continue;
    }
    const callSpec = step.call.via ? context.specs.get(step.call.via) : spec;
    if (!callSpec) {
      problems.push({ behaviour: 'provider-accepts', status: 'fail', detail: `scenario ${scenario.id} calls via "${step.call.via}", which has no provider spec` });
      break;
    }
    const policy = step.call.via ? policyFor(context.table, callSpec) : targetPolicy;
    const before = JSON.stringify(history);
    const transport: Transport = (request) => send(request, callSpec, { scenario: scenario.id, call });
    let result;
    try {
      result = await sendWithFallback({
        history,
        policy,
        options: { ...(scenario.tools ? { tools: scenario.tools } : {}), ...(context.stream ? { stream: true } : {}) },
        verdicts,
        transport,
      });
    } catch (err) {
      problems.push({ behaviour: 'provider-accepts', status: 'fail', detail: `call ${call} to ${callSpec.id} could not be sent: ${err instanceof Error ? err.message : String(err)}` });
      break;
    }
    applies.add('history-unmutated');
    if (JSON.stringify(history) !== before) problems.push({ behaviour: 'history-unmutated', status: 'fail', detail: `call ${call}: building the request for route ${policy.routeId} changed the history` });

    for (const attempt of result.attempts) {
      const findings = findingsOf(attempt.response);
      exchanges.push({
        call,
        provider: callSpec.id,
        route: policy.routeId,
        url: callSpec.endpoint.baseUrl.replace(/\/$/, '') + attempt.request.path,
        status: attempt.response.status,
        sentFields: wireCarrierKeys(attempt.request.body),
        violations: findings.map((f) => f.rule),
        ...(isOk(attempt.response.status) ? {} : { error: attempt.response.body }),
        attempt: attempt.attempt,
      });
      // The first attempt is what the route table asked for; the retry's omissions are the fallback's
      // intent and are judged as fallback-recovers below.
      if (attempt.attempt === 1) {
        const judged = checkRequest({ call, history, body: attempt.request.body, policy, spec: callSpec });
        judged.applies.forEach((b) => applies.add(b));
        problems.push(...judged.problems);
      }
      for (const finding of findings) {
        const behaviour = (BEHAVIOURS as readonly string[]).includes(finding.rule) ? (finding.rule as Behaviour) : 'provider-accepts';
        applies.add(behaviour);
        // An unknown-field rejection on the default route is what the fallback exists for; it is judged below.
        const expected = finding.rule === 'strict-schema' && policy.routeId === defaultRouteId && result.recorded.length > 0;
        if (!expected) {
          problems.push({ behaviour, status: 'fail', detail: `call ${call} attempt ${attempt.attempt}: ${callSpec.label} answered ${attempt.response.status}: ${finding.detail ?? finding.rejection} — ${errorSummary(attempt.response)}` });
        }
      }
    }
    if (result.recorded.length > 0) {
      applies.add('fallback-recovers');
      const note = `call ${call}: ${callSpec.label} refused ${result.recorded.join(', ')} as unknown; recorded for (${policy.target.provider}, ${specHost(callSpec)}, ${policy.target.model}) and retried once`;
      problems.push(isOk(result.response.status) ? { behaviour: 'fallback-recovers', status: 'pass', detail: note } : { behaviour: 'fallback-recovers', status: 'fail', detail: `${note}; the retry failed too (${result.response.status})` });
      if (policy.routeId !== defaultRouteId) {
        problems.push({
          behaviour: 'strict-schema',
          status: 'fail',
          detail: `call ${call}: ${callSpec.label} rejects a carrier route ${policy.routeId} sends (the fallback withheld ${result.recorded.join(', ')}): the route table is stale for this route`,
        });
      }
    }
    applies.add('provider-accepts');
    if (!isOk(result.response.status)) {
      if (!problems.some((p) => p.status === 'fail' && p.detail.startsWith(`call ${call} attempt`))) {
        problems.push({ behaviour: 'provider-accepts', status: 'fail', detail: `call ${call}: ${callSpec.label} answered ${result.response.status}: ${errorSummary(result.response)}` });
      }
      break;
    }
    try {
      history.messages.push(readAnswer(callSpec, policy, result.response));
    } catch (err) {
      problems.push({ behaviour: 'provider-accepts', status: 'fail', detail: `call ${call}: the answer from ${callSpec.id} could not be read: ${err instanceof Error ? err.message : String(err)}` });
      break;
    }
    call++;
  }

  if (context.retention && call > 0) {
    for (const check of context.retention(history, targetPolicy)) {
      if (check.status !== 'n/a') applies.add(check.behaviour);
      problems.push(check);
    }
  }

  const checks: Check[] = BEHAVIOURS.map((behaviour) => {
    const mine = problems.filter((p) => p.behaviour === behaviour);
    const failed = mine.filter((p) => p.status === 'fail');
    const lines = (list: Check[]) => [...new Set(list.map((p) => p.detail))].join('\n');
    if (failed.length > 0) return { behaviour, status: 'fail', detail: lines(failed) };
    if (!applies.has(behaviour)) return { behaviour, status: 'n/a', detail: '' };
    return { behaviour, status: 'pass', detail: lines(mine) };
  });
  const loaded = context.fixtures?.get(spec.id, scenario.id);
  const verdict: CellVerdict = {
    scenario: scenario.id,
    target: spec.id,
    route: targetPolicy.routeId,
    tier: targetPolicy.tier,
    family: targetPolicy.family,
    status: cellStatus(checks),
    checks,
    exchanges,
    ...(loaded ? { fixture: { path: loaded.path, provenance: loaded.fixture.provenance.kind } } : {}),
  };
  return { verdict, history };
}
