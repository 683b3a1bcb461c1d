import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { providerRoutes } from '../../../provider/handlers/provider-routes.js';
import type { MockRoute } from '../../../provider/handlers/mock-route.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RealWorldCase } from '../../services/real-world-cases/real-world-case.js';
import { replayCase, type MockOutcome } from '../../services/real-world-cases/replay-case.js';

/**
 * The mock's answer to a request in the corpus's form (placeholders resolved by the mock signers),
 * exactly as the real-world replay gets it: the provider's mock routes asked in process, no network.
 */
export class MockJudge {
  private readonly routes = new Map<string, MockRoute[]>();

  constructor(private readonly fixtures: FixtureStore) {}

  judge(
    spec: ProviderSpec,
    model: string,
    request: { body: unknown; path?: string; stream?: boolean },
  ): Promise<MockOutcome> {
    let list = this.routes.get(spec.id);
    if (!list) this.routes.set(spec.id, (list = providerRoutes(spec, this.fixtures)));
    const c: RealWorldCase = {
      id: 'verify',
      ruleClass: 'reasoning-echo',
      source: { url: 'https://example.invalid', kind: 'recorded-exchange' },
      framework: 'verify',
      provider: spec.id,
      model,
      request: {
        body: request.body,
        ...(request.path ? { path: request.path } : {}),
        ...(request.stream ? { stream: true } : {}),
      },
      outcome: { accepted: true },
    };
    return replayCase(c, spec, list, this.fixtures);
  }
}
