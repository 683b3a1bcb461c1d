import type { HttpHandler } from './msw-core.js';
import type { FixtureStore } from '../fixtures/fixture-store.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { mswHandler } from './msw-handlers.js';
import { providerRoutes, type MockOptions } from './provider-routes.js';

export type { MockOptions } from './provider-routes.js';

/**
 * One provider's mock as msw handlers (for `serve`, fetch interception and tests): its routes (provider-routes.ts),
 * each as msw's own handler. In-process callers take the routes themselves.
 */
export function providerHandlers(spec: ProviderSpec, fixtures: FixtureStore, options: MockOptions = {}): HttpHandler[] {
  return providerRoutes(spec, fixtures, options).map(mswHandler);
}
