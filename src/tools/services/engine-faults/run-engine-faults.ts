import type { EngineUnderTest, SendRequest } from '../../../judge/engine-under-test.js';
import { presentedTarget } from '../../../judge/conformance/call-target.js';
import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { faultApplies, loadFaultCatalogue, type Fault } from '../../../shared/faults/fault-catalogue.js';
import type { Message, History } from '../../../shared/history/history.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { policyFor } from '../../../shared/route-table/policy-for.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { readResponse } from '../../../shared/transport/transport.js';
import { startServe } from '../serve/start-serve.js';
import { isSignatureRefusal, withoutSignedReasoning } from '../../../engine/history/strip-unverifiable-reasoning.js';

/** How this project's engine went under one fault on one route: recovers-from-faults, as `run --faults` judges it. */
export interface EngineFaultResult {
  route: string;
  provider: string;
  fault: string;
  status: 'pass' | 'fail' | 'not-injected';
  /** The fault's verdict line: recovered, or the request that showed the damage and the fix. */
  detail: string;
  requests: number;
}

const TOOL = {
  type: 'function',
  function: {
    name: 'lookup_order',
    description: 'Status of one order',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
};
const TURNS = ['Where is order ORD-1234?', 'And order ORD-5678?'];
/** Tries per model call: the first, and the resends a deployed agent makes after an error (the faults' bound is 3). */
const TRIES = 3;
const MAX_STEPS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Drives the engine through two user turns with a tool round each, streamed, against fresh mocks that follow it and
 * inject one fault: the engine builds each request and reads each answer; this loop is the agent around it. A call
 * whose exchange breaks (a cut stream) or is answered 429/5xx is sent again from the untouched history, after
 * Retry-After when there is one, at most TRIES times. A refusal of a replayed signature is recovered from once, by
 * the engine's documented repair (strip-unverifiable-reasoning.ts: the signed items dropped, text and calls kept);
 * any other refusal (4xx), or a second one, ends the session. The mocks' judge says whether the engine recovered
 * (src/judge/faults/).
 */
async function oneFault(
  spec: ProviderSpec,
  fault: Fault,
  options: RunEngineFaultsOptions,
): Promise<Omit<EngineFaultResult, 'route'>> {
  let requests = 0;
  const serve = await startServe({
    port: 0,
    specs: options.specs,
    fixtures: options.fixtures,
    table: options.table,
    runId: `engine-faults-${spec.id}-${fault.name}`,
    seed: 0,
    faults: [fault],
    log: () => requests++,
  });
  const base = `${serve.url}/${spec.id}${new URL(spec.endpoint.baseUrl).pathname.replace(/\/$/, '')}`;
  const send: SendRequest = async (request) =>
    readResponse(
      await fetch(base + request.path, {
        method: request.method,
        headers: request.headers,
        body: JSON.stringify(request.body),
      }),
    );
  try {
    const session = options.engine.startSession();
    const target = presentedTarget(spec, undefined, true);
    const history: History = { messages: [] };
    const input = { history, target, table: options.table, spec, options: { tools: [TOOL], stream: true } };
    let repaired = false;
    turns: for (const text of TURNS) {
      history.messages.push({ role: 'user', content: text } as Message);
      for (let step = 0; step < MAX_STEPS; step++) {
        let answer: Message | undefined;
        for (let attempt = 0; attempt < TRIES && !answer; attempt++) {
          try {
            const turn = await session.turn(input, send);
            const last = turn.attempts.at(-1);
            if (!last) break turns;
            const status = last.response.status;
            if (status === 429 || status >= 500) {
              const after = Number(last.response.headers['retry-after'] ?? 0);
              await sleep(Math.min(after, 2) * 1000);
              continue;
            }
            if (status >= 400 && !repaired && isSignatureRefusal(status, last.response.body)) {
              const stripped = withoutSignedReasoning(history);
              if (stripped) {
                // Once per session: a second signature refusal after the repair is not retried (no loop).
                repaired = true;
                history.messages.splice(0, history.messages.length, ...stripped.messages);
                continue;
              }
            }
            if (status >= 400) break turns;
            // The history and the body sent: a provider that dropped a replayed block names where it sat.
            answer = await session.readAnswer(last.response, { ...input, sent: last.request.body });
          } catch {
            // The exchange broke (a cut stream): nothing of it is kept; the call is sent again.
          }
        }
        if (!answer) break turns;
        history.messages.push(answer);
        const calls = (answer as { tool_calls?: Array<{ id: string }> }).tool_calls ?? [];
        if (!calls.length) break;
        for (const call of calls)
          history.messages.push({ role: 'tool', tool_call_id: call.id, content: '{"status":"shipped"}' } as Message);
      }
    }
  } finally {
    await serve.close();
  }
  const verdict = serve.faults?.verdicts().find((v) => v.fault === fault.name);
  if (!verdict)
    return {
      provider: spec.id,
      fault: fault.name,
      status: 'not-injected',
      detail: `no answer ${fault.name} applies to came in ${requests} requests`,
      requests,
    };
  return {
    provider: spec.id,
    fault: fault.name,
    status: verdict.status,
    detail:
      verdict.status === 'fail' && verdict.damage
        ? verdict.damage.detail
        : `recovered: ${verdict.requestsAfter} requests after the fault (request #${verdict.injectedAt}${verdict.where ? `, ${verdict.where}` : ''}), none carrying its damage`,
    requests,
  };
}

export interface RunEngineFaultsOptions {
  engine: EngineUnderTest;
  specs: ProviderSpec[];
  fixtures: FixtureStore;
  table: RouteTable;
  /** Faults to run (default: every fault of specs/faults.json). */
  faults?: readonly Fault[];
  /** Only the routes of these provider specs (default: every route). */
  providers?: readonly string[];
}

/**
 * recovers-from-faults for this project's engine, per route: the first provider spec of each route in the table,
 * under each fault that applies to it, one fresh serve each.
 */
export async function runEngineFaults(options: RunEngineFaultsOptions): Promise<EngineFaultResult[]> {
  const faults = options.faults ?? loadFaultCatalogue().faults;
  const firstOfRoute = new Map<string, ProviderSpec>();
  for (const spec of options.specs) {
    if (options.providers && !options.providers.includes(spec.id)) continue;
    const route = policyFor(options.table, spec).routeId;
    if (!firstOfRoute.has(route)) firstOfRoute.set(route, spec);
  }
  // Routes run side by side (each fault of a route in turn): most of a run is waiting, on Retry-After above all.
  const perRoute = await Promise.all(
    [...firstOfRoute].map(async ([route, spec]) => {
      const own: EngineFaultResult[] = [];
      for (const fault of faults.filter((f) => faultApplies(f, spec.family, spec.id)))
        own.push({ route, ...(await oneFault(spec, fault, options)) });
      return own;
    }),
  );
  return perRoute.flat();
}
