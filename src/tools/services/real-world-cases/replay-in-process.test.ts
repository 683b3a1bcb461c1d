import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { answerInProcess } from '../../../provider/handlers/answer-in-process.js';
import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { providerHandlers } from '../../../provider/handlers/provider-handlers.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadRealWorldCases } from './real-world-case.js';
import { caseRequest } from './replay-case.js';

const answerOf = async (response: Response | undefined) =>
  response && { status: response.status, headers: [...response.headers], body: await response.text() };

describe('the in-process answer of every real-world case', () => {
  it("is msw getResponse's answer to the same request: status, every header and the body", async () => {
    const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
    const fixtures = new FixtureStore();
    const cases = loadRealWorldCases();
    let compared = 0;
    for (const { case: c } of cases) {
      const spec = specs.get(c.provider);
      if (!spec) continue;
      const handlers = providerHandlers(spec, fixtures);
      const direct = await answerOf(await answerInProcess(handlers, caseRequest(c, spec, fixtures)));
      const viaMsw = await answerOf(await getResponse(handlers, caseRequest(c, spec, fixtures)));
      expect(direct, c.id).toEqual(viaMsw);
      compared++;
    }
    // Every case names a spec (real-world-cases.test.ts); all of them were compared.
    expect(compared).toBe(cases.length);
  }, 60_000);
});
