import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { answerRoutes } from '../../../provider/handlers/answer-routes.js';
import { wireHeaders } from '../../../provider/handlers/mock-exchange.js';
import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { providerHandlers } from '../../../provider/handlers/provider-handlers.js';
import { providerRoutes } from '../../../provider/handlers/provider-routes.js';
import { mockAnswerText } from '../../../provider/handlers/routes-transport.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadRealWorldCases } from './real-world-case.js';
import { caseExchange, caseWire } from './replay-case.js';

describe('the in-process answer of every real-world case', () => {
  it("is what the provider's msw handlers answer to the same request: status, every header and the body", async () => {
    const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
    const fixtures = new FixtureStore();
    const cases = loadRealWorldCases();
    let compared = 0;
    for (const { case: c } of cases) {
      const spec = specs.get(c.provider);
      if (!spec) continue;
      const routed = await answerRoutes(providerRoutes(spec, fixtures), caseExchange(c, spec, fixtures));
      const wire = caseWire(c, spec, fixtures);
      const request = new Request(wire.url, { method: 'POST', headers: wire.headers, body: wire.body });
      const viaMsw = await getResponse(providerHandlers(spec, fixtures), request);
      expect(
        routed && { status: routed.status, headers: wireHeaders(routed.headers), body: mockAnswerText(routed) },
        c.id,
      ).toEqual(
        viaMsw && {
          status: viaMsw.status,
          headers: Object.fromEntries(viaMsw.headers),
          body: await viaMsw.text(),
        },
      );
      compared++;
    }
    // Every case names a spec (real-world-cases.test.ts); all of them were compared.
    expect(compared).toBe(cases.length);
  }, 60_000);
});
