import type { RouteDefinition, RouteTarget } from './route-table.js';

/**
 * A concrete target that route matching sends to `route`: its first provider id and host, a local
 * address for the local row, a model containing the row's first model substring. Tests and the
 * retention checks use it to exercise every row of a table without a hand-kept list.
 */
export function sampleTargetForRoute(route: RouteDefinition): RouteTarget {
  const host = route.match.hosts?.[0] ?? (route.match.local ? '127.0.0.1' : 'api.example.com');
  const provider = route.match.providers?.[0] ?? (route.match.local ? 'local' : 'example');
  const model = route.match.models?.[0] ? `${route.match.models[0]}-test` : `${route.id}-model`;
  return { provider, host, model };
}
