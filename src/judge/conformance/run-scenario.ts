import type { History } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { policyFor } from '../../shared/route-table/policy-for.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';
import type { Scenario } from '../../shared/scenarios/scenario.js';
import { aggregateChecks } from './aggregate-checks.js';
import { opaqueStringsLost } from './answer-kept.js';
import type { EngineUnderTest } from '../engine-under-test.js';
import { fromCheck, judgeExchange } from './judge-exchange.js';
import { fetchTransport, fetchTransportWithin, type ScenarioTransport } from '../../shared/transport/transport.js';
import {
  cellStatus,
  type Behaviour,
  type CellVerdict,
  type Check,
  type ExchangeRecord,
  type JudgeFinding,
} from './verdict.js';

export {
  fetchTransport,
  fetchTransportWithin,
  readResponse,
  type ScenarioTransport,
  type TransportResponse,
} from '../../shared/transport/transport.js';

/** Which fixture answers a scenario for a provider: the report names its file and provenance. */
export interface FixtureLookup {
  get(
    provider: string,
    scenario: string,
  ): { path: string; fixture: { provenance: { kind: NonNullable<CellVerdict['fixture']>['provenance'] } } } | undefined;
}

export interface ScenarioRunContext {
  table: RouteTable;
  specs: ReadonlyMap<string, ProviderSpec>;
  fixtures?: FixtureLookup;
  /** Ask for streamed answers and read them through the family's StreamCarriers. */
  stream?: boolean;
  /** Transport: where each request goes (default: fetch, which msw intercepts). */
  send?: ScenarioTransport;
  /** Deadline per exchange in ms for the default fetch transport (ignored when `send` is given). */
  timeoutMs?: number;
  /**
   * The engine under test: the callers inject it (the built-in one is src/tools/engine-adapters/built-in-engine.ts;
   * `check --engine` plugs an external one).
   */
  engine: EngineUnderTest;
  /** Per-cell retention checks (compaction, branch, resume) on the final history. */
  retention?: (history: History, policy: RoutePolicy) => Check[];
}

export interface ScenarioRun {
  verdict: CellVerdict;
  history: History;
  /** Every finding of the cell, structured (the verdict's check details are their text). */
  findings: JudgeFinding[];
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Runs one scenario against one provider target through the route the table resolves for it. Three
 * parts, apart: the transport carries requests, the engine under test builds them (and reads
 * answers back into history), the exchange judge turns each call into findings; aggregation makes
 * the cell's checks. Calls stop at the first the provider refuses: later turns would only repeat it.
 */
export async function runScenario(
  scenario: Scenario,
  spec: ProviderSpec,
  context: ScenarioRunContext,
): Promise<ScenarioRun> {
  const transport =
    context.send ?? (context.timeoutMs !== undefined ? fetchTransportWithin(context.timeoutMs) : fetchTransport);
  const engine = context.engine.startSession();
  const targetPolicy = policyFor(context.table, spec);
  const defaultRouteId = context.table.routes.find((r) => r.match.default)?.id;
  const history: History = { messages: [] };
  const findings: JudgeFinding[] = [];
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
      findings.push({
        behaviour: 'provider-accepts',
        status: 'fail',
        provider: spec.id,
        call,
        detail: `scenario ${scenario.id} calls via "${step.call.via}", which has no provider spec`,
      });
      break;
    }
    const policy = step.call.via ? policyFor(context.table, callSpec) : targetPolicy;
    // A call that never reached a verdict fails acceptance for this provider and route.
    const callFailed = (detail: string) => ({
      behaviour: 'provider-accepts' as const,
      status: 'fail' as const,
      provider: callSpec.id,
      route: policy.routeId,
      call,
      detail,
    });
    const historyBefore = JSON.stringify(history);
    const options = {
      ...(scenario.tools ? { tools: scenario.tools } : {}),
      ...(context.stream ? { stream: true } : {}),
    };
    let turn;
    try {
      turn = await engine.turn({ history, policy, spec: callSpec, options }, (request) =>
        transport(request, callSpec, { scenario: scenario.id, call }),
      );
    } catch (err) {
      findings.push(callFailed(`call ${call} to ${callSpec.id} could not be sent: ${errorText(err)}`));
      break;
    }
    const judged = judgeExchange({ call, history, historyBefore, policy, spec: callSpec, turn, defaultRouteId });
    judged.applies.forEach((b) => applies.add(b));
    findings.push(...judged.findings);
    exchanges.push(...judged.exchanges);
    if (!judged.accepted) break;
    try {
      const read = engine.readAnswer(judged.response, policy, callSpec);
      // A block dropped while reading the answer is lost before any other check can see it. Owed back
      // only where the spec wants reasoning back: a provider that reads it on tool-call turns only
      // (Copilot's reasoning_opaque) never sees what a text-only answer held.
      const owed =
        (read.tool_calls?.length ?? 0) > 0
          ? callSpec.echo.length > 0
          : callSpec.echo.some((r) => r.turns !== 'tool-call-turns');
      const lost = owed ? opaqueStringsLost(judged.response.body, read) : [];
      if (lost.length > 0) {
        applies.add('signatures-verbatim');
        findings.push({
          behaviour: 'signatures-verbatim',
          status: 'fail',
          provider: callSpec.id,
          route: policy.routeId,
          call,
          detail: `call ${call}: ${lost.length} opaque reasoning string(s) of ${callSpec.label}'s answer (signature, encrypted or redacted block) are not in the message the engine read from it: a block dropped on reading is never sent back`,
        });
      }
      history.messages.push(read);
    } catch (err) {
      findings.push(callFailed(`call ${call}: the answer from ${callSpec.id} could not be read: ${errorText(err)}`));
      break;
    }
    call++;
  }

  if (context.retention && call > 0) {
    for (const check of context.retention(history, targetPolicy)) {
      if (check.status === 'n/a') continue;
      applies.add(check.behaviour);
      findings.push(fromCheck(check, { provider: spec.id, route: targetPolicy.routeId }));
    }
  }

  const checks = aggregateChecks(findings, applies);
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
  return { verdict, history, findings };
}
