import { closest, distance } from 'fastest-levenshtein';
import { InputError } from '../../shared/errors/input-error.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';

/** Every provider id the CLI knows: the route table's match lists and the provider specs' ids and targets. */
export function knownProviderIds(table: RouteTable, specs: readonly ProviderSpec[]): string[] {
  const ids = new Set<string>();
  for (const route of table.routes) for (const p of route.match.providers ?? []) ids.add(p);
  for (const spec of specs) ids.add(spec.id).add(spec.target.provider);
  return [...ids].sort();
}

/**
 * `--provider` is matched as typed: an id no route or spec knows reaches a route only by its host,
 * and a typo of a known id that lands on the default route is refused with a did-you-mean (a
 * newcomer's `deepsek` used to get the default route without a word). A typo a host still routes
 * correctly, or an unknown id far from every known one (a provider of one's own), is named on stderr.
 */
export function checkProviderId(
  provider: string,
  policy: RoutePolicy,
  table: RouteTable,
  known: readonly string[],
): void {
  const id = provider.trim().toLowerCase();
  if (known.includes(id) || known.length === 0) return;
  const near = closest(id, known);
  const typo = distance(id, near) <= Math.max(1, Math.floor(near.length / 4));
  const isDefault = table.routes.find((r) => r.id === policy.routeId)?.match.default === true;
  if (typo && isDefault)
    throw new InputError(
      '--provider',
      '',
      `no provider "${provider}" in the route table or the provider specs; it would fall to the default route`,
      `did you mean "${near}"?`,
    );
  process.stderr.write(
    `reasoning-replay: --provider "${provider}" is in no route of the table${typo ? ` (did you mean "${near}"?)` : ''}; ` +
      `the target resolves to route ${policy.routeId} by its host and model\n`,
  );
}
