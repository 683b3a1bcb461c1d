import { policyFor } from '../../../shared/route-table/policy-for.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import type { RouteChange } from './describe-route-table-diff.js';

/**
 * Paths (relative to the repository root) whose change can alter any cell: the engine, the provider
 * rules, the scenarios, the schemas, the fixtures and the locked dependencies. Any of them changed
 * means every route is re-run, not only the ones the table diff names.
 */
export const ENGINE_PATHS = [
  'src/',
  'specs/providers/',
  'specs/scenarios/',
  'specs/schema/',
  'fixtures/',
  'package.json',
  'package-lock.json',
];

export function engineChanges(changedPaths: string[]): string[] {
  return changedPaths.filter((p) =>
    ENGINE_PATHS.some((prefix) => (prefix.endsWith('/') ? p.startsWith(prefix) : p === prefix)),
  );
}

/**
 * Routes of the new table whose cells can differ: every route a behavioural change names, plus the
 * route each provider target resolves to whenever its resolved policy changed (a reorder, a match
 * edit or a removal moves targets between routes without touching the routes they land on).
 */
export function affectedRoutes(
  base: RouteTable,
  head: RouteTable,
  changes: RouteChange[],
  specs: ProviderSpec[],
): Set<string> {
  const headIds = new Set(head.routes.map((r) => r.id));
  const affected = new Set(changes.filter((c) => c.behavioural && headIds.has(c.route)).map((c) => c.route));
  const comparable = (p: ReturnType<typeof policyFor>) => JSON.stringify({ ...p, label: undefined });
  for (const spec of specs) {
    const before = policyFor(base, spec);
    const after = policyFor(head, spec);
    if (comparable(before) !== comparable(after)) affected.add(after.routeId);
  }
  return affected;
}
