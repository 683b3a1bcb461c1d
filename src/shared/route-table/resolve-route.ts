import { deepMerge } from '../objects/deep-merge.js';
import { hostMatches, isLocalHost } from './host-matching.js';
import { modelMatches } from './model-match.js';
import type { RouteDefinition, RoutePolicy, RouteTable, RouteTarget, UpstreamModelRule } from './route-table.js';
import { InvariantError } from '../errors/invariant-error.js';

export function routeMatches(route: RouteDefinition, target: RouteTarget): boolean {
  const { match } = route;
  if (match.default) return true;
  const provider = target.provider.trim().toLowerCase();
  const keyed =
    (match.providers?.includes(provider) ?? false) ||
    (match.hosts?.some((h) => hostMatches(target.host, h)) ?? false) ||
    (match.local === true && isLocalHost(target.host));
  return keyed && modelMatches(target.model, match);
}

/**
 * Routes already found, per list of routes and target. A `check` asks for the same few dozen targets thousands of
 * times, and each miss walks every route's hosts and model patterns. Keyed on the routes array, so a table given new
 * routes is looked up afresh; a loaded table is never edited in place.
 */
const found = new WeakMap<readonly RouteDefinition[], Map<string, RouteDefinition>>();

/** The first route whose match holds; the table's last route is the default, so there always is one. */
export function findRoute(table: RouteTable, target: RouteTarget): RouteDefinition {
  let byTarget = found.get(table.routes);
  if (!byTarget) found.set(table.routes, (byTarget = new Map()));
  const key = `${target.provider}\u0000${target.host}\u0000${target.model}`;
  let route = byTarget.get(key);
  if (!route) {
    route = table.routes.find((r) => routeMatches(r, target));
    if (!route)
      throw new InvariantError(`no route matches ${JSON.stringify(target)} and the table has no default route`);
    byTarget.set(key, route);
  }
  return route;
}

/**
 * The upstream-model rule that applies to this model on this route: the rule names the route (with
 * the public reports of the upstream's error passing through it) and the model matches. A strict
 * route is never raised: strict wins, as everywhere else.
 */
export function upstreamRuleFor(
  table: RouteTable,
  route: RouteDefinition,
  model: string,
): UpstreamModelRule | undefined {
  if (route.tier !== 'standard') return undefined;
  return table.upstreamModels?.find((rule) => rule.on.some((o) => o.route === route.id) && modelMatches(model, rule));
}

export function resolveRoute(table: RouteTable, target: RouteTarget): RoutePolicy {
  const route = findRoute(table, target);
  let flags: Record<string, unknown> = {};
  for (const flag of route.flags ?? []) {
    if (modelMatches(target.model, flag.when)) flags = deepMerge(flags, flag.set);
  }
  const upstream = upstreamRuleFor(table, route, target.model);
  const policy: RoutePolicy = {
    routeId: route.id,
    label: route.label,
    family: route.family,
    tier: upstream ? upstream.tier : route.tier,
    fields: [...route.fields],
    flags,
    target: { ...target },
  };
  if (upstream) policy.upstreamRule = upstream.id;
  if (route.native) policy.native = route.native;
  const replayPolicy =
    route.modelPolicies?.find((p) => modelMatches(target.model, { models: p.models }))?.policy ?? route.defaultPolicy;
  if (replayPolicy) policy.replayPolicy = replayPolicy;
  // Written only when it holds, so a policy for a model that reasons is the same as before the key existed.
  if (route.withoutReasoning && modelMatches(target.model, route.withoutReasoning)) policy.withoutReasoning = true;
  if (route.serverCarriers?.length) policy.serverCarriers = route.serverCarriers.map((c) => c.kind);
  if (route.thinkingBinding && modelMatches(target.model, route.thinkingBinding)) policy.bindsThinking = true;
  if (route.thinkingBinding) policy.bindingModels = [...route.thinkingBinding.models];
  if (route.upstreamBinding && modelMatches(target.model, route.upstreamBinding))
    policy.boundUpstreams = route.upstreamBinding.upstreams.map((u) => ({ ...u }));
  return policy;
}
