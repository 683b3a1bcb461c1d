import { resolveRoute } from './resolve-route.js';
import type { RoutePolicy, RouteTable } from './route-table.js';

/**
 * What a provider target looks like to the route table: its provider id, model and base URL. A
 * provider spec has this shape; routes name it structurally so the engine never imports the
 * provider side.
 */
export interface RouteTargetSource {
  target: { provider: string; model: string };
  endpoint: { baseUrl: string };
}

/** The policy the table resolves for a provider target, matched on its id, base-URL host and model. */
export function policyFor(table: RouteTable, source: RouteTargetSource): RoutePolicy {
  return resolveRoute(table, {
    provider: source.target.provider,
    host: new URL(source.endpoint.baseUrl).host,
    model: source.target.model,
  });
}
