import { deepMerge } from '../util/deep-merge.js';
import { hostMatches, isLocalHost } from './host-matching.js';
import type { RouteDefinition, RoutePolicy, RouteTable, RouteTarget } from './route-table.js';

function modelMatches(model: string, substrings: string[] | undefined): boolean {
  if (!substrings) return true;
  const m = model.toLowerCase();
  return substrings.some((s) => m.includes(s));
}

export function routeMatches(route: RouteDefinition, target: RouteTarget): boolean {
  const { match } = route;
  if (match.default) return true;
  const provider = target.provider.trim().toLowerCase();
  const keyed =
    (match.providers?.includes(provider) ?? false) ||
    (match.hosts?.some((h) => hostMatches(target.host, h)) ?? false) ||
    (match.local === true && isLocalHost(target.host));
  return keyed && modelMatches(target.model, match.models);
}

/** The first route whose match holds; the table's last route is the default, so there always is one. */
export function findRoute(table: RouteTable, target: RouteTarget): RouteDefinition {
  const route = table.routes.find((r) => routeMatches(r, target));
  if (!route) throw new Error(`no route matches ${JSON.stringify(target)} and the table has no default route`);
  return route;
}

export function resolveRoute(table: RouteTable, target: RouteTarget): RoutePolicy {
  const route = findRoute(table, target);
  let flags: Record<string, unknown> = {};
  for (const flag of route.flags ?? []) {
    if (modelMatches(target.model, flag.when?.models)) flags = deepMerge(flags, flag.set);
  }
  const policy: RoutePolicy = {
    routeId: route.id,
    label: route.label,
    family: route.family,
    tier: route.tier,
    fields: [...route.fields],
    flags,
    target: { ...target },
  };
  if (route.native) policy.native = route.native;
  const replayPolicy = route.modelPolicies?.find((p) => modelMatches(target.model, p.models))?.policy ?? route.defaultPolicy;
  if (replayPolicy) policy.replayPolicy = replayPolicy;
  return policy;
}

