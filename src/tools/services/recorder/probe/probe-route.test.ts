import { afterEach, describe, expect, it } from 'vitest';
import { assertValid } from '../../../../shared/validation/validate.js';
import { loadRouteTable } from '../../../../shared/route-table/load-route-table.js';
import { findRoute } from '../../../../shared/route-table/resolve-route.js';
import { startFakeProvider, type FakeProvider, type FakeTier } from '../fake-provider.test-helper.js';
import { classifyProbe, diffRoute, suggestRow } from './classify-probe.js';
import { probeRoute } from './probe-route.js';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function probe(tier: FakeTier, provider: string) {
  server = await startFakeProvider({ tier });
  const target = { provider, host: new URL(server.baseUrl).host, model: 'fake-model' };
  const current = findRoute(loadRouteTable(), target);
  const outcomes = await probeRoute({
    baseUrl: server.baseUrl,
    family: 'openai-chat',
    target,
    apiKey: 'sk-probe-test-000000000000000000000',
  });
  const classification = classifyProbe(outcomes);
  const suggested = suggestRow(classification, current, target, 'openai-chat', 'probed')!;
  return { outcomes, classification, suggested, diff: diffRoute(current, suggested), requests: server.requests };
}

describe('probeRoute against a real loopback server', () => {
  it('sends one carrier at a time, then none, with the family auth header', async () => {
    const { requests } = await probe('standard', 'acme');
    const carried = requests.map((r) =>
      Object.keys((r.body as { messages: Array<Record<string, unknown>> }).messages[1]!).filter((k) =>
        k.startsWith('reasoning'),
      ),
    );
    expect(carried).toEqual([['reasoning_content'], ['reasoning'], ['reasoning_details'], []]);
    expect(requests.every((r) => r.headers.authorization === 'Bearer sk-probe-test-000000000000000000000')).toBe(true);
  });

  it('derives strict from a strict server, and agrees with the mistral row', async () => {
    const { classification, suggested, diff, outcomes } = await probe('strict', 'mistral');
    expect(classification.tier).toBe('strict');
    expect(outcomes.find((o) => o.variant === 'reasoning_content')?.wording).toContain(
      'Extra inputs are not permitted',
    );
    expect(suggested.row).toMatchObject({ id: 'mistral', tier: 'strict', fields: [] });
    expect(diff).toEqual([]);
  });

  it('derives must-echo from a must-echo server, and flags the shared local route as stale for it', async () => {
    const { classification, suggested, diff } = await probe('must-echo', 'acme');
    expect(classification.tier).toBe('must-echo');
    expect(suggested.row).toMatchObject({ id: 'acme', tier: 'must-echo', fields: ['reasoning_content'] });
    expect(diff).toContain('tier: standard -> must-echo');
    expect(diff).toContain('fields: - reasoning');
    // The row is ready to paste: it is a valid route-table row.
    expect(() =>
      assertValid({ version: 1, routes: [suggested.row] }, 'routes.schema.json', 'suggested row'),
    ).not.toThrow();
  });

  it('derives standard from a lenient server; a strict row for it is stale', async () => {
    const { classification, suggested, diff } = await probe('standard', 'groq');
    expect(classification.tier).toBe('standard');
    expect(suggested.row).toMatchObject({ id: 'groq', tier: 'standard', fields: ['reasoning_content'] });
    expect(suggested.alsoAccepted).toEqual(['reasoning', 'reasoning_details']);
    expect(diff).toEqual(['tier: strict -> standard', 'fields: + reasoning_content']);
  });
});
