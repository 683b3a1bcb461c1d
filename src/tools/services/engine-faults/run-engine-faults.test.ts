import { describe, expect, it } from 'vitest';
import type { EngineUnderTest } from '../../../judge/engine-under-test.js';
import { selectFaults } from '../../../shared/faults/fault-catalogue.js';
import { builtInEngine } from '../engine-adapters/built-in-engine.js';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { runEngineFaults } from './run-engine-faults.js';

const inputs = loadMatrixInputs({});
const CUTS = [
  'messages-cut-before-signature',
  'messages-cut-mid-signature',
  'messages-cut-after-signature',
  // The stream ends in good order, short of message_stop: only a missing message_stop says it was cut.
  'messages-stream-ends-mid-signature',
];
const run = (engine: EngineUnderTest, faults: string[], providers = ['anthropic']) =>
  runEngineFaults({
    engine,
    specs: inputs.specs,
    fixtures: inputs.fixtures,
    table: inputs.table,
    faults: selectFaults(faults),
    providers,
  });

/** The built-in engine, except that every request after the first carries its thinking signatures cut to 8 characters. */
const truncating: EngineUnderTest = {
  ...builtInEngine,
  startSession() {
    const session = builtInEngine.startSession();
    let sent = 0;
    return {
      ...session,
      turn: (input, send) =>
        session.turn(input, (request) => {
          if (sent++ === 0) return send(request);
          const body = JSON.parse(
            JSON.stringify(request.body, (key, value: unknown) =>
              key === 'signature' && typeof value === 'string' ? value.slice(0, 8) : value,
            ),
          ) as Record<string, unknown>;
          return send({ ...request, body });
        }),
    };
  },
};

describe('runEngineFaults: this project’s engine under each fault, per route', () => {
  it('the engine recovers from a stream cut anywhere in a thinking block: the cut call is sent again, nothing partial kept', async () => {
    const results = await run(builtInEngine, CUTS);
    expect(results.map((r) => [r.route, r.provider, r.fault])).toEqual(CUTS.map((f) => ['anthropic', 'anthropic', f]));
    for (const r of results) {
      expect(r.status, `${r.fault}: ${r.detail}`).toBe('pass');
      // Two turns with a tool round each after the resend: the session went on.
      expect(r.requests, r.fault).toBeGreaterThanOrEqual(4);
    }
  }, 60_000);

  it('an engine that sends a signature cut short fails, naming the fault and the request that carried it', async () => {
    const [r] = await run(truncating, ['messages-cut-mid-signature']);
    expect(r!.status).toBe('fail');
    expect(r!.detail).toContain('after fault messages-cut-mid-signature');
    expect(r!.detail).toMatch(/request #\d/);
  }, 60_000);

  it('an error status mid-loop is resent after Retry-After and recovered from', async () => {
    const [r] = await run(builtInEngine, ['rate-limited-429-mid-loop']);
    expect(r).toMatchObject({ fault: 'rate-limited-429-mid-loop', status: 'pass' });
  }, 60_000);

  it('after a gateway switches upstream, a refused signature is dropped and the call retried once, on every gateway route', async () => {
    const routes = ['anthropic', 'foundry-anthropic', 'vertex-anthropic', 'openrouter', 'kilo', 'vercel-ai-gateway'];
    const results = await run(builtInEngine, ['gateway-upstream-switch'], routes);
    expect(results.map((r) => `${r.provider} ${r.status}: ${r.detail}`)).toEqual(
      results.map((r) => `${r.provider} pass: ${r.detail}`),
    );
    expect(results.length).toBe(routes.length);
  }, 120_000);

  it('after the provider reports a bound block dropped, the engine stores the history without it and never resends it', async () => {
    const [r] = await run(builtInEngine, ['bound-block-dropped']);
    expect(r, r!.detail).toMatchObject({ fault: 'bound-block-dropped', status: 'pass' });
  }, 60_000);
});
