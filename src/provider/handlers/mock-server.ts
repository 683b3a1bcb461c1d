import { setupServer, type SetupServer } from 'msw/node';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { registerProviderSpecs } from '../../shared/provider-specs/spec-registry.js';
import type { FixtureStore } from '../fixtures/fixture-store.js';
import { providerHandlers, type MockOptions } from './provider-handlers.js';

/**
 * Every provider's handlers in one MSW server, intercepting this process's fetch. Unhandled
 * requests are errors: a request that no mock claims must never reach the network.
 */
export function startMockProviders(
  specs: ProviderSpec[],
  fixtures: FixtureStore,
  options: MockOptions = {},
): SetupServer {
  // Gateway specs consult their upstreams' rules by id.
  registerProviderSpecs(specs);
  const server = setupServer(...specs.flatMap((spec) => providerHandlers(spec, fixtures, options)));
  server.listen({ onUnhandledRequest: 'error' });
  return server;
}
