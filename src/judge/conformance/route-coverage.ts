import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';
import { policyFor } from '../../shared/route-table/policy-for.js';

/** Routes no provider spec resolves to: the gate cannot test them, so a new route must bring a spec. */
export function uncoveredRoutes(table: RouteTable, specs: ProviderSpec[]): string[] {
  const covered = new Set(specs.map((s) => policyFor(table, s).routeId));
  return table.routes.map((r) => r.id).filter((id) => !covered.has(id));
}
