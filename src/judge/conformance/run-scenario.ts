import type { History, Message } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';
import type { Scenario, ScenarioCall } from '../../shared/scenarios/scenario.js';
import { aggregateChecks } from './aggregate-checks.js';
import { CompactionLedger } from './compaction-kept.js';
import { BindingLedger } from './binding-respected.js';
import { opaqueStringsLost } from './answer-kept.js';
import { expectedPolicy, presentedTarget } from './call-target.js';
import type { EngineOperation, EngineTarget, EngineUnderTest, SendRequest } from '../engine-under-test.js';
import { fromCheck, judgeExchange } from './judge-exchange.js';
import { VerdictLedger } from './judge-fallback.js';
import { notJudgedCheck, type NotJudged } from './not-judged.js';
import { withFaults } from './scripted-faults.js';
import { wireCarrierKeys } from './wire-carriers.js';
import { isEngineFailure } from '../../shared/errors/engine-failed-error.js';
import { cutStream, streamOpaqueStrings } from './stream-pieces.js';
import {
  fetchTransport,
  fetchTransportWithin,
  type ExchangeResponse,
  type ScenarioTransport,
} from '../../shared/transport/transport.js';
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
  ):
    | {
        path: string;
        fixture: {
          provenance: { kind: NonNullable<CellVerdict['fixture']>['provenance'] };
          exchanges?: ReadonlyArray<{ response: { body?: unknown; stream?: unknown } }>;
        };
      }
    | undefined;
}

/**
 * The fixture answers this call only as a stream (an imported HAR or VCR of a streamed session has
 * no JSON body): the call is asked for a stream so the gate replays what was recorded, instead of
 * a 599 blamed on the provider. The mock picks the exchange by call number the same way.
 */
function recordedOnlyAsStream(fixtures: FixtureLookup | undefined, provider: string, scenario: string, call: number) {
  const exchanges = fixtures?.get(provider, scenario)?.fixture.exchanges ?? [];
  const response = exchanges[Math.min(call, exchanges.length - 1)]?.response;
  return response !== undefined && response.body === undefined && response.stream !== undefined;
}

/** One call of a run as the retention checks may replay it (a stored session's turn through the fallback). */
export interface RunCall {
  call: number;
  /** Messages before this call (the history the call was built from). */
  historyBefore: History;
  spec: ProviderSpec;
  target: EngineTarget;
  policy: RoutePolicy;
  /** The fields the engine withheld after an unknown-field rejection on this call, as the judge counted it. */
  learned: string[];
  send: SendRequest;
  options: { tools?: unknown[]; stream?: boolean };
}

/** The retention checks of one cell: what its final history does through the engine's storage and compaction. */
export type CellRetention = (
  history: History,
  target: { target: EngineTarget; spec: ProviderSpec; policy: RoutePolicy; options: RunCall['options'] },
  calls: readonly RunCall[],
) => Promise<Check[]>;

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
   * The engine under test: the callers inject it (the built-in one is src/tools/services/engine-adapters/built-in-engine.ts;
   * `check --engine` plugs an external one).
   */
  engine: EngineUnderTest;
  /** Per-cell retention checks (compaction, branch, resume) on the final history. */
  retention?: CellRetention;
  /**
   * Sessions are independent: when this run's session learned a fallback verdict, the scenario is run once more
   * in a new session of the same engine, whose requests up to that call must be the first session's (decision 0103).
   */
  checkSessions?: boolean;
}

export interface ScenarioRun {
  verdict: CellVerdict;
  history: History;
  /** Every finding of the cell, structured (the verdict's check details are their text). */
  findings: JudgeFinding[];
  /** Behaviours this cell needed and the engine could not be judged on (it does not implement the operation). */
  notJudged: NotJudged[];
  /** The first request body of each call (its first try), as JSON: what a second session must repeat. */
  firstRequests: string[];
  /** The first call at which the session learned a verdict (withheld a carrier), if any. */
  learnedAt?: number;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const isStream = (r: ExchangeResponse) =>
  typeof r.body === 'string' && (r.headers['content-type'] ?? '').includes('event-stream');

/**
 * Runs one scenario against one provider target through the route the judge reads off the table
 * for it. Three parts, apart: the transport carries requests (with the scenario's faults, and
 * streams cut into many pieces), the engine under test builds them and reads answers back into
 * history, the exchange judge turns each call into findings; aggregation makes the cell's checks.
 * Calls stop at the first the provider refuses: later turns would only repeat it.
 */
export async function runScenario(
  scenario: Scenario,
  spec: ProviderSpec,
  context: ScenarioRunContext,
): Promise<ScenarioRun> {
  const transport =
    context.send ?? (context.timeoutMs !== undefined ? fetchTransportWithin(context.timeoutMs) : fetchTransport);
  const engine = context.engine.startSession();
  const operations = context.engine.operations;
  const stream = context.stream === true || scenario.stream === true;
  const targetPolicy = expectedPolicy(context.table, presentedTarget(spec, undefined, stream), undefined);
  const defaultRouteId = context.table.routes.find((r) => r.match.default)?.id;
  const history: History = { messages: [] };
  const findings: JudgeFinding[] = [];
  const applies = new Set<Behaviour>();
  const exchanges: ExchangeRecord[] = [];
  const notJudged = new Map<EngineOperation, Set<Behaviour>>();
  const skip = (operation: EngineOperation, ...behaviours: Behaviour[]) => {
    const set = notJudged.get(operation) ?? new Set();
    behaviours.forEach((b) => set.add(b));
    notJudged.set(operation, set);
  };
  const ledger = new VerdictLedger();
  const compaction = new CompactionLedger();
  const binding = new BindingLedger();
  /** History index -> the binding model the judge saw write that turn (its thinking is bound to that model). */
  const boundTo = new Map<number, string>();
  const calls: RunCall[] = [];
  const firstRequests: string[] = [];
  let learnedAt: number | undefined;
  let call = 0;

  steps: for (const step of scenario.steps) {
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
    const target = presentedTarget(callSpec, step.call.as, stream);
    const policy = expectedPolicy(context.table, target, step.call.as);
    // A call that never reached a verdict fails acceptance for this provider and route.
    const callFailed = (detail: string) => ({
      behaviour: 'provider-accepts' as const,
      status: 'fail' as const,
      provider: callSpec.id,
      route: policy.routeId,
      call,
      detail,
    });
    const options = {
      ...(scenario.tools ? { tools: scenario.tools } : {}),
      ...(stream || recordedOnlyAsStream(context.fixtures, callSpec.id, scenario.id, call) ? { stream: true } : {}),
    };
    // Streams reach the engine cut into many pieces; the judge keeps what the provider sent whole.
    const sentStreams = new Map<ExchangeResponse, string>();
    const send: SendRequest = async (request) => {
      const response = await transport(request, callSpec, { scenario: scenario.id, call });
      if (!isStream(response) || !(response.status >= 200 && response.status < 300)) return response;
      const cut = { ...response, body: cutStream(callSpec.family, response.body as string) };
      sentStreams.set(cut, response.body as string);
      return cut;
    };
    if (step.call.faults && !operations.has('fallback')) skip('fallback', 'fallback-recovers');
    // A call the scripted faults leave refused is sent once more without them, as the user would.
    const tries: Array<ScenarioCall['faults']> = step.call.faults ? [step.call.faults, undefined] : [undefined];
    let judged: ReturnType<typeof judgeExchange> | undefined;
    /** The request the accepted answer came to (the last attempt), for binding-respected. */
    let answeredRequest: unknown;
    for (const faults of tries) {
      const faulted = withFaults(send, faults, context.specs);
      const before = JSON.stringify(history);
      let turn;
      try {
        turn = await engine.turn({ history, target, table: context.table, spec: callSpec, options }, faulted.send);
      } catch (err) {
        // The engine's own failure is not a verdict on this provider: it stops the run (exit 2).
        if (isEngineFailure(err)) throw err;
        findings.push(callFailed(`call ${call} to ${callSpec.id} could not be sent: ${errorText(err)}`));
        break steps;
      }
      if (firstRequests[call] === undefined && turn.attempts[0])
        firstRequests[call] = JSON.stringify(turn.attempts[0].request.body);
      if (turn.withheld.length > 0) learnedAt ??= call;
      judged = judgeExchange({
        call,
        history,
        historyBefore: before,
        policy,
        spec: callSpec,
        turn,
        defaultRouteId,
        table: context.table,
        injected: faulted.injected,
        ledger,
        judgesFallback: operations.has('fallback'),
        scenario: scenario.id,
        ...(context.engine.judgedBy ? { judgedBy: context.engine.judgedBy } : {}),
        boundElsewhere: new Set(
          [...boundTo].filter(([, model]) => model.toLowerCase() !== target.model.toLowerCase()).map(([i]) => i),
        ),
      });
      judged.applies.forEach((b) => applies.add(b));
      findings.push(...judged.findings);
      answeredRequest = turn.attempts.at(-1)?.request.body;
      // compaction-kept: every request after a provider compacted carries its newest item back, to it alone.
      if (compaction.applies) {
        applies.add('compaction-kept');
        for (const attempt of turn.attempts)
          findings.push(...compaction.judge(call, policy.routeId, callSpec.id, attempt.request.body));
      }
      // binding-respected: a model that binds thinking to its prefix is never sent thinking whose prefix changed.
      if (policy.bindsThinking) {
        applies.add('binding-respected');
        const refusal = callSpec.rejections['thinking-bound-to-different-conversation'];
        const wording = refusal ? JSON.stringify(refusal.body).match(/The block is bound[^"]*/)?.[0] : undefined;
        for (const attempt of turn.attempts)
          findings.push(
            ...binding.judge(call, policy.routeId, callSpec.id, attempt.request.body, wording, target.model),
          );
      }
      exchanges.push(...judged.exchanges);
      if (turn.attempts.length > 1)
        calls.push({
          call,
          // The engine must not have changed it (history-unmutated says so when it did).
          historyBefore: structuredClone(history),
          spec: callSpec,
          target,
          policy,
          learned: turn.withheld,
          send,
          options,
        });
      if (!judged.refusedByFault) break;
    }
    if (!judged || !judged.accepted) break;
    try {
      const read = await engine.readAnswer(judged.response, { target, table: context.table, spec: callSpec });
      const streamed = sentStreams.get(judged.response);
      const judgesReading = operations.has('read') && (streamed === undefined || operations.has('stream'));
      if (!judgesReading) skip(streamed === undefined ? 'read' : 'stream', 'signatures-verbatim');
      // A block dropped while reading the answer is lost before any other check can see it. Owed back
      // only where the spec wants reasoning back: a provider that reads it on tool-call turns only
      // (Copilot's reasoning_opaque) never sees what a text-only answer held.
      const owed =
        (read.tool_calls?.length ?? 0) > 0
          ? callSpec.echo.length > 0
          : callSpec.echo.some((r) => r.turns !== 'tool-call-turns');
      const lost = owed && judgesReading ? lostOnReading(judged.response, streamed, callSpec, read) : [];
      if (lost.length > 0) {
        applies.add('signatures-verbatim');
        findings.push({
          behaviour: 'signatures-verbatim',
          status: 'fail',
          provider: callSpec.id,
          route: policy.routeId,
          call,
          detail: `call ${call}: ${lost.length} opaque reasoning string(s) of ${callSpec.label}'s ${streamed === undefined ? 'answer' : 'streamed answer (cut into pieces)'} (signature, encrypted or redacted block) are not in the message the engine read from it${streamed === undefined ? '' : ', joined or replaced as the family streams them'}: a block lost on reading is never sent back`,
        });
      }
      history.messages.push(read);
      compaction.observe(call, policy.routeId, callSpec.id, streamed ?? judged.response.body);
      binding.observe(
        call,
        answeredRequest,
        streamed ?? judged.response.body,
        policy.bindsThinking ? target.model : undefined,
      );
      if (policy.bindsThinking) boundTo.set(history.messages.length - 1, target.model);
    } catch (err) {
      if (isEngineFailure(err)) throw err;
      findings.push(callFailed(`call ${call}: the answer from ${callSpec.id} could not be read: ${errorText(err)}`));
      break;
    }
    call++;
  }

  if (call > 0) {
    if (context.retention) {
      const options = {
        ...(scenario.tools ? { tools: scenario.tools } : {}),
        ...(stream ? { stream: true } : {}),
      };
      const target = presentedTarget(spec, undefined, stream);
      for (const check of await context.retention(history, { target, spec, policy: targetPolicy, options }, calls)) {
        if (check.status === 'n/a') continue;
        applies.add(check.behaviour);
        findings.push(fromCheck(check, { provider: spec.id, route: targetPolicy.routeId }));
      }
    }
    if (!operations.has('store')) skip('store', 'survives-branch', 'survives-resume');
    if (!operations.has('compact')) skip('compact', 'survives-compaction');
  }

  if (context.checkSessions && learnedAt !== undefined) {
    // The same target in a new session: nothing the first session learned may be there from the start.
    const again = await runScenario(scenario, spec, { ...context, checkSessions: false, retention: undefined });
    const leak = sessionLeak(firstRequests, again.firstRequests, learnedAt);
    applies.add('fallback-recovers');
    if (leak)
      findings.push({
        behaviour: 'fallback-recovers',
        status: 'fail',
        provider: spec.id,
        route: targetPolicy.routeId,
        call: leak.call,
        detail: `state leaked between sessions: the session that learned a verdict at call ${learnedAt} was followed by a new session of the same target, whose call ${leak.call} sent ${leak.detail}; an engine keeps what it learns per session (docs/judge-your-agent.md, "One session, one state")`,
      });
  }

  const notJudgedList: NotJudged[] = [...notJudged].map(([operation, behaviours]) => ({
    operation,
    behaviours: [...behaviours],
  }));
  const checks = aggregateChecks(findings, applies).map((check) => notJudgedCheck(check, notJudgedList));
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
  return {
    verdict,
    history,
    findings,
    notJudged: notJudgedList,
    firstRequests,
    ...(learnedAt !== undefined ? { learnedAt } : {}),
  };
}

/**
 * The first call up to `upTo` whose first request in the second session differs from the first session's, and
 * how (carrier keys missing or added, else "a different body"); undefined when the sessions agree.
 */
export function sessionLeak(
  first: readonly string[],
  second: readonly string[],
  upTo: number,
): { call: number; detail: string } | undefined {
  for (let call = 0; call <= upTo && call < first.length; call++) {
    const [a, b] = [first[call], second[call]];
    if (a === undefined || a === b) continue;
    if (b === undefined) return { call, detail: 'no request at all (the first session sent one)' };
    const keys = (text: string) => new Set(wireCarrierKeys(JSON.parse(text)));
    const [ka, kb] = [keys(a), keys(b)];
    const missing = [...ka].filter((k) => !kb.has(k));
    const added = [...kb].filter((k) => !ka.has(k));
    const parts = [
      ...(missing.length ? [`without ${missing.join(', ')}`] : []),
      ...(added.length ? [`with ${added.join(', ')}`] : []),
    ];
    return {
      call,
      detail: `a different first request than the first session's${parts.length ? ` (${parts.join('; ')})` : ''}`,
    };
  }
  return undefined;
}

/** The opaque strings of an answer the read message does not hold; for a stream, by the family's stream rules. */
function lostOnReading(
  response: ExchangeResponse,
  streamed: string | undefined,
  spec: ProviderSpec,
  read: Message,
): string[] {
  if (streamed === undefined) return opaqueStringsLost(response.body, read);
  const kept = JSON.stringify(read);
  return streamOpaqueStrings(spec.family, streamed).filter((s) => !kept.includes(JSON.stringify(s).slice(1, -1)));
}
