import { InputError } from '../../shared/errors/input-error.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { policyFor } from '../../shared/route-table/policy-for.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RouteDefinition, RoutePolicy, RouteTable, RouteTarget } from '../../shared/route-table/route-table.js';
import { sampleTargetForRoute } from '../../shared/route-table/sample-target.js';
import { checkProviderId, knownProviderIds } from './provider-id-check.js';

export interface CliRouteArgs {
  route?: string;
  provider?: string;
  host?: string;
  model?: string;
}

/**
 * The target `--route ID` stands for: the first provider spec the table sends to that row (its real
 * provider id, API host and model), so rules that read the model (upstream-model rules, flags) see a
 * model that exists. A row no spec reaches falls back to a made-up sample.
 */
export function defaultTargetForRoute(
  table: RouteTable,
  route: RouteDefinition,
  specs: readonly ProviderSpec[],
): RouteTarget {
  const spec = specs.find((s) => policyFor(table, s).routeId === route.id);
  if (!spec) return sampleTargetForRoute(route);
  return { provider: spec.target.provider, host: new URL(spec.endpoint.baseUrl).host, model: spec.target.model };
}

/**
 * A route policy from either `--route ID` (a row of the table, reached through the provider spec
 * that lands on it; `--provider/--host/--model` may override its parts) or the full
 * `--provider/--host/--model` target.
 */
export function resolveCliRoute(table: RouteTable, args: CliRouteArgs, specs: readonly ProviderSpec[]): RoutePolicy {
  if (args.route !== undefined) {
    const route = table.routes.find((r) => r.id === args.route);
    if (!route)
      throw new InputError(
        '--route',
        '',
        `no route "${args.route}" in the table`,
        `one of: ${table.routes.map((r) => r.id).join(', ')}`,
      );
    const sample = defaultTargetForRoute(table, route, specs);
    const target = {
      provider: args.provider ?? sample.provider,
      host: args.host ?? sample.host,
      model: args.model ?? sample.model,
    };
    const policy = resolveRoute(table, target);
    if (policy.routeId !== route.id) {
      throw new InputError(
        '--route',
        '',
        `${JSON.stringify(target)} resolves to route "${policy.routeId}", not "${route.id}"`,
        'give --provider/--host/--model that reach the row',
      );
    }
    return policy;
  }
  if (args.provider === undefined || args.host === undefined || args.model === undefined) {
    throw new InputError('--route', '', 'name a route', 'give --route ID, or all of --provider, --host and --model');
  }
  const policy = resolveRoute(table, { provider: args.provider, host: args.host, model: args.model });
  checkProviderId(args.provider, policy, table, knownProviderIds(table, specs));
  return policy;
}
