/**
 * reasoning-replay's public API: the provider mocks for your own tests, the request judge, and the
 * route table with the replay engine. Everything else under dist/ is internal and may change.
 */
import { loadProviderSpecs } from './shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from './shared/provider-specs/provider-spec.js';
import { judgeRequest as judgeWithSpec } from './provider/handlers/judge-request.js';
import type { Finding } from './shared/findings/finding.js';
import { loadRouteTable } from './shared/route-table/load-route-table.js';
import { resolveRoute as resolveInTable } from './shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable, RouteTarget } from './shared/route-table/route-table.js';
import { ApiUsageError } from './shared/errors/api-usage-error.js';

export { startProviderMocks, type ProviderMocks, type ProviderMocksOptions } from './tools/provider-mocks.js';
export { replayForRoute } from './engine/replay/replay-for-route.js';
export { findPoisonedCarriers, type PoisonedCarrier, type PoisonKind } from './engine/history/poisoned-carriers.js';
export type { FaultVerdict } from './judge/faults/fault-recovery-judge.js';
export type { RequestOptions, OutboundRequest } from './engine/families/family.js';
export type { History, Message, ToolCall } from './shared/history/history.js';
export type { RoutePolicy, RouteTable, RouteTarget } from './shared/route-table/route-table.js';
export type { ProviderSpec } from './shared/provider-specs/provider-spec.js';
export type { Finding } from './shared/findings/finding.js';
export type { ServeLogEntry as Verdict } from './tools/serve/serve-log.js';
export type { ClientReport, ClientCell, ClientCellStatus } from './tools/serve/client-report.js';

let specs: Map<string, ProviderSpec> | undefined;
let table: RouteTable | undefined;

/**
 * What the provider would say about this request body, by the bundled provider spec: an empty list
 * when it would accept it, else one finding per broken rule (the first is the error it answers).
 * `provider` is a spec id (`deepseek`, `anthropic`, `gemini`, ...) or a ProviderSpec of your own.
 */
export function judgeRequest(provider: string | ProviderSpec, body: unknown): Finding[] {
  if (typeof provider !== 'string') return judgeWithSpec(provider, body);
  specs ??= new Map(loadProviderSpecs().map((s) => [s.id, s]));
  const spec = specs.get(provider);
  if (!spec)
    throw new ApiUsageError(`judgeRequest: no provider "${provider}" (one of ${[...specs.keys()].join(', ')})`);
  return judgeWithSpec(spec, body);
}

/** The route the bundled table (or `routes`) resolves for a target: which carriers travel, tier, family. */
export function resolveRoute(target: RouteTarget, routes?: RouteTable | string): RoutePolicy {
  const chosen =
    typeof routes === 'object'
      ? routes
      : typeof routes === 'string'
        ? loadRouteTable(routes)
        : (table ??= loadRouteTable());
  return resolveInTable(chosen, target);
}
