import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable, RouteTarget } from '../../shared/route-table/route-table.js';

/**
 * The engine's route for a target as an agent's configuration names it (provider id, base-URL host,
 * model id, as typed): the table's first matching route, its flags for that model and its replay
 * policy. The engine asks here, never the judge: `check` tells the engine under test the target
 * only, and holds what it built against the route the judge reads off the table itself.
 */
export function routeForTarget(table: RouteTable, target: RouteTarget): RoutePolicy {
  return resolveRoute(table, target);
}
