import { InputError } from '../../shared/errors/input-error.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';
import { sampleTargetForRoute } from '../../shared/route-table/sample-target.js';

export interface CliRouteArgs {
  route?: string;
  provider?: string;
  host?: string;
  model?: string;
}

/**
 * A route policy from either `--route ID` (a row of the table, reached through its first provider
 * and host; `--model` may name the model) or the full `--provider/--host/--model` target.
 */
export function resolveCliRoute(table: RouteTable, args: CliRouteArgs): RoutePolicy {
  if (args.route !== undefined) {
    const route = table.routes.find((r) => r.id === args.route);
    if (!route)
      throw new InputError(
        '--route',
        '',
        `no route "${args.route}" in the table`,
        `one of: ${table.routes.map((r) => r.id).join(', ')}`,
      );
    const sample = sampleTargetForRoute(route);
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
  return resolveRoute(table, { provider: args.provider, host: args.host, model: args.model });
}
