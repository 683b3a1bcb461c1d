/**
 * Provider faults through the replay and conformance path: 5xx, 429 with Retry-After, a connection
 * reset mid-stream, a stream that stalls past the deadline, and 4xx bodies that name a carrier
 * field without saying it is unknown (DeepSeek's "must be passed back"). None of them is an
 * unknown-field rejection, so none may be retried or recorded as a verdict, and the history the
 * request was built from never changes.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { runScenario } from '../../src/judge/conformance/run-scenario.js';
import { builtInEngine } from '../../src/tools/services/engine-adapters/built-in-engine.js';
import type { OutboundRequest } from '../../src/engine/families/family.js';
import { fillRejection } from '../../src/provider/handlers/fill-rejection.js';
import { CALL_HEADER } from '../../src/shared/findings/finding.js';
import { FixtureStore } from '../../src/provider/fixtures/fixture-store.js';
import { startMockProviders } from '../../src/provider/handlers/mock-server.js';
import { aHistory } from '../helpers/history-arbitraries.test-helper.js';
import { loadProviderSpecs } from '../../src/shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec, Rejection } from '../../src/shared/provider-specs/provider-spec.js';
import { sendWithFallback, type TransportResponse } from '../../src/engine/replay/fallback.js';
import { UnknownFieldVerdicts } from '../../src/engine/replay/unknown-field-verdicts.js';
import { loadRouteTable } from '../../src/shared/route-table/load-route-table.js';
import { resolveRoute } from '../../src/shared/route-table/resolve-route.js';
import { sampleTargetForRoute } from '../../src/shared/route-table/sample-target.js';
import { implementedFamilies } from '../../src/engine/families/registry.js';
import { loadScenarios } from '../../src/shared/scenarios/load-scenarios.js';
import type { Scenario } from '../../src/shared/scenarios/scenario.js';
import { formatSseEvent } from '../../src/shared/sse/parse-sse.js';
import { deepFreeze } from '../../src/shared/objects/deep-freeze.js';

const RUNS = Math.max(200, Number(process.env.FC_RUNS) || 200);
const table = loadRouteTable();
const specs = loadProviderSpecs();
const bySpec = new Map(specs.map((s) => [s.id, s]));
const scenarios = new Map(loadScenarios().map((s) => [s.id, s]));
const fixtures = new FixtureStore();
const policies = table.routes
  .filter((r) => implementedFamilies().includes(r.family))
  .map((r) => resolveRoute(table, sampleTargetForRoute(r)));

/**
 * Anthropic's documented overload answer (https://docs.llmgateway.io/troubleshooting/anthropic-529-overloaded,
 * https://learn.microsoft.com/en-us/microsoft-cloud/dev/dev-proxy/concepts/anthropic-529-overloaded-error).
 * The other bodies say plainly that their wording is not a provider's.
 */
const OVERLOADED = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
const generic = (status: number) => ({
  error: { message: `reasoning-replay test: a ${status} (provider wording not modelled)` },
});

/** Every rejection in the bundled specs that is not an unknown-field one, filled as the mocks fill it. */
const valueComplaints: Array<{ id: string; rejection: Rejection }> = specs.flatMap((spec) =>
  Object.entries(spec.rejections)
    .filter(([, r]) => r.kind !== 'unknown-field')
    .map(([name, rejection]) => ({ id: `${spec.id}/${name}`, rejection })),
);

const aServerFault: fc.Arbitrary<TransportResponse> = fc.oneof(
  fc
    .constantFrom(500, 502, 503, 504, 529)
    .map((status) => ({ status, headers: {}, body: status === 529 ? OVERLOADED : generic(status) })),
  // A 5xx whose text looks like an unknown-field complaint is still a server fault: never a verdict.
  fc.constantFrom(500, 503).map((status) => ({
    status,
    headers: {},
    body: { error: { message: 'messages.1.assistant.reasoning_content: Extra inputs are not permitted' } },
  })),
  fc
    .integer({ min: 0, max: 120 })
    .map((s) => ({ status: 429, headers: { 'retry-after': String(s) }, body: generic(429) })),
  fc
    .tuple(
      fc.constantFrom(...valueComplaints),
      fc.nat({ max: 12 }),
      fc.constantFrom('reasoning_content', 'reasoning_details', 'thinking', 'signature'),
    )
    .map(([{ rejection }, index, field]) =>
      fillRejection(rejection, { index, field, role: 'assistant', block: 0, path: `messages.${index}.content.0` }),
    ),
);

describe('sendWithFallback under faults (any history, any route)', () => {
  it('has value complaints to replay, DeepSeek and MiMo "must be passed back" among them', () => {
    expect(valueComplaints.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'deepseek/reasoning-content-not-passed-back',
        'mimo/reasoning-content-not-passed-back',
        'moonshot/reasoning-content-missing',
      ]),
    );
  });

  test('a fault is sent once, recorded as nothing, and leaves the history as it was', () =>
    fc.assert(
      fc.asyncProperty(aHistory, fc.constantFrom(...policies), aServerFault, async (generated, policy, fault) => {
        const history = deepFreeze(structuredClone(generated));
        const snapshot = JSON.stringify(history);
        const verdicts = new UnknownFieldVerdicts();
        const sent: OutboundRequest[] = [];
        const result = await sendWithFallback({
          history,
          policy,
          verdicts,
          transport: async (request) => (sent.push(request), fault),
        });
        expect(sent).toHaveLength(1);
        expect(result.attempts).toHaveLength(1);
        expect(result.recorded).toEqual([]);
        expect(result.response).toBe(fault);
        expect([...verdicts.fieldsFor(policy.target)]).toEqual([]);
        expect(JSON.stringify(history)).toBe(snapshot);
      }),
      { numRuns: RUNS },
    ));

  test('a connection reset rejects after exactly one request and records nothing', () =>
    fc.assert(
      fc.asyncProperty(aHistory, fc.constantFrom(...policies), async (generated, policy) => {
        const history = deepFreeze(structuredClone(generated));
        const snapshot = JSON.stringify(history);
        const verdicts = new UnknownFieldVerdicts();
        let calls = 0;
        const reset = Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
        });
        await expect(
          sendWithFallback({ history, policy, verdicts, transport: async () => (calls++, Promise.reject(reset)) }),
        ).rejects.toBe(reset);
        expect(calls).toBe(1);
        expect([...verdicts.fieldsFor(policy.target)]).toEqual([]);
        expect(JSON.stringify(history)).toBe(snapshot);
      }),
      { numRuns: RUNS },
    ));

  test('an unknown-field rejection is retried at most once, even when the retry is refused the same way', () =>
    fc.assert(
      fc.asyncProperty(
        aHistory,
        fc.constantFrom(...policies),
        fc.constantFrom(...specs.flatMap((s) => Object.values(s.rejections).filter((r) => r.kind === 'unknown-field'))),
        async (generated, policy, rejection) => {
          const history = deepFreeze(structuredClone(generated));
          const snapshot = JSON.stringify(history);
          const verdicts = new UnknownFieldVerdicts();
          let calls = 0;
          const refusal = fillRejection(rejection, {
            index: 1,
            field: 'reasoning_content',
            role: 'assistant',
            path: 'messages.1.reasoning_content',
          });
          const result = await sendWithFallback({
            history,
            policy,
            verdicts,
            transport: async () => (calls++, refusal),
          });
          expect(calls).toBeLessThanOrEqual(2);
          expect(result.attempts).toHaveLength(calls);
          if (calls === 2) expect(result.recorded.length).toBeGreaterThan(0);
          else expect(result.recorded).toEqual([]);
          if (policy.tier === 'must-echo')
            expect(verdicts.fieldsFor(policy.target).has('reasoning_content')).toBe(false);
          expect(JSON.stringify(history)).toBe(snapshot);
        },
      ),
      { numRuns: RUNS },
    ));
});

describe('runScenario through the MSW mocks under faults', () => {
  const server = startMockProviders(specs, fixtures);
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  const scenario = scenarios.get('tool-call-with-reasoning')!;
  /** One provider per wire family (DeepSeek for the chat family: its "must be passed back" wording is the point). */
  const targets = [...new Set(specs.map((s) => s.family))].map((family) =>
    family === 'openai-chat' ? bySpec.get('deepseek')! : specs.find((s) => s.family === family)!,
  );

  /** The messages the scenario's history holds just before call `n` is sent (appends and earlier answers). */
  function messagesBeforeCall(s: Scenario, n: number): number {
    let count = 0;
    let call = 0;
    for (const step of s.steps) {
      if ('call' in step) {
        if (call === n) return count;
        call++;
      }
      count++;
    }
    throw new Error(`scenario ${s.id} has no call ${n}`);
  }

  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  /**
   * Answers call `at` to the spec's host with `fault` (counting how often it is asked); other calls reach the normal
   * mock.
   */
  function faultAt(spec: ProviderSpec, at: number, fault: () => Response | Promise<Response>): { hits: number } {
    const counter = { hits: 0 };
    server.use(
      http.post(new RegExp(`^${escapeRegExp(new URL(spec.endpoint.baseUrl).origin)}/`), ({ request }) => {
        if (request.headers.get(CALL_HEADER) !== String(at)) return undefined;
        counter.hits++;
        return fault();
      }),
    );
    return counter;
  }

  async function runWithFault(
    spec: ProviderSpec,
    fault: () => Response | Promise<Response>,
    options: { at?: number; stream?: boolean; timeoutMs?: number } = {},
  ) {
    const at = options.at ?? 1;
    const stream = options.stream ? { stream: true } : {};
    const baseline = await runScenario(scenario, spec, {
      table,
      specs: bySpec,
      fixtures,
      engine: builtInEngine,
      ...stream,
    });
    // The comparison below needs a baseline that got past the call the fault replaces.
    expect(baseline.history.messages.length).toBeGreaterThan(messagesBeforeCall(scenario, at));
    const counter = faultAt(spec, at, fault);
    const run = await runScenario(scenario, spec, {
      table,
      specs: bySpec,
      fixtures,
      engine: builtInEngine,
      ...stream,
      timeoutMs: options.timeoutMs ?? 2000,
    });
    const accepts = run.verdict.checks.find((c) => c.behaviour === 'provider-accepts')!;
    const fallback = run.verdict.checks.find((c) => c.behaviour === 'fallback-recovers')!;
    return { at, baseline, run, hits: counter.hits, accepts, fallback };
  }

  /** What every fault must leave: one request for the failing call, no fallback, the history cut just before it. */
  function expectContained(result: Awaited<ReturnType<typeof runWithFault>>) {
    const { at, baseline, run, hits, accepts, fallback } = result;
    expect(hits).toBe(1);
    expect(run.verdict.exchanges.filter((e) => e.call === at).length).toBeLessThanOrEqual(1);
    expect(run.verdict.exchanges.every((e) => e.attempt === 1)).toBe(true);
    expect(fallback.status).toBe('n/a');
    expect(accepts.status).toBe('fail');
    expect(run.verdict.status).toBe('fail');
    expect(run.history.messages).toEqual(baseline.history.messages.slice(0, messagesBeforeCall(scenario, at)));
  }

  /** A stream that sends one event and then either breaks (reset) or goes quiet (stall). */
  function brokenStream(after: 'reset' | 'stall', release: (resume: () => void) => void = () => {}): Response {
    const encoder = new TextEncoder();
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode(formatSseEvent({ data: JSON.stringify({ partial: 'half a tho' }) })));
          return;
        }
        if (after === 'reset') controller.error(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
        // A stall never sends the rest; the test releases it afterwards so nothing outlives it.
        else return new Promise<void>((resolve) => release(resolve));
      },
    });
    return new HttpResponse(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  }

  it('covers every wire family that has a provider spec', () => {
    expect(targets.map((t) => t.family).sort()).toEqual([...new Set(specs.map((s) => s.family))].sort());
  });

  describe.each(targets.map((spec) => [spec.id, spec] as const))('%s', (_id, spec) => {
    it('a 503 is reported as the provider refusing, not retried', async () => {
      const result = await runWithFault(spec, () => HttpResponse.json(generic(503), { status: 503 }));
      expectContained(result);
      expect(result.accepts.detail).toContain('503');
    });

    it('a 529 overload on the first call stops the scenario before anything is appended', async () => {
      expectContained(await runWithFault(spec, () => HttpResponse.json(OVERLOADED, { status: 529 }), { at: 0 }));
    });

    it('a 429 with Retry-After is not retried (the harness does not wait out rate limits)', async () => {
      const result = await runWithFault(spec, () =>
        HttpResponse.json(generic(429), { status: 429, headers: { 'retry-after': '30' } }),
      );
      expectContained(result);
      expect(result.accepts.detail).toContain('429');
    });

    it('DeepSeek\'s "must be passed back" 400 names reasoning_content but is not an unknown-field rejection', async () => {
      const answer = fillRejection(bySpec.get('deepseek')!.rejections['reasoning-content-not-passed-back']!, {});
      const result = await runWithFault(spec, () =>
        HttpResponse.json(answer.body as Record<string, unknown>, { status: answer.status }),
      );
      expectContained(result);
      expect(result.accepts.detail).toContain('must be passed back');
    });

    it('a connection reset mid-stream fails the call once and keeps no half answer', async () => {
      const result = await runWithFault(spec, () => brokenStream('reset'), { stream: true });
      expectContained(result);
      expect(result.accepts.detail).toMatch(/could not be sent/);
    });

    it('a stream that stalls past the deadline is abandoned after one request', async () => {
      let resume: (() => void) | undefined;
      const result = await runWithFault(spec, () => brokenStream('stall', (r) => (resume = r)), {
        stream: true,
        timeoutMs: 150,
      });
      resume?.();
      expectContained(result);
      expect(result.accepts.detail).toMatch(/could not be sent.*(timeout|abort)/i);
    }, 30_000);
  });
});
