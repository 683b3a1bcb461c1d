/**
 * reasoning-replay's public API: the provider mocks for your own tests, the request judge, and the
 * route table with the replay engine. Everything else under dist/ is internal and may change.
 */
import { loadProviderSpecs } from './shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from './shared/provider-specs/provider-spec.js';
import { judgeAsTheMock } from './provider/handlers/judge-request.js';
import type { Finding } from './shared/findings/finding.js';
import { loadRouteTable } from './shared/route-table/load-route-table.js';
import { resolveRoute as resolveInTable } from './shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable, RouteTarget } from './shared/route-table/route-table.js';
import { ApiUsageError } from './shared/errors/api-usage-error.js';

export {
  startProviderMocks,
  type ProviderMocks,
  type ProviderMocksOptions,
} from './tools/services/provider-mocks/provider-mocks.js';
export { replayForRoute } from './engine/replay/replay-for-route.js';
export { findPoisonedCarriers, type PoisonedCarrier, type PoisonKind } from './engine/history/poisoned-carriers.js';
export type { FaultVerdict } from './judge/faults/fault-recovery-judge.js';
export type { RequestOptions, OutboundRequest } from './engine/families/family.js';
export type { History, Message, ToolCall } from './shared/history/history.js';
export type { RoutePolicy, RouteTable, RouteTarget } from './shared/route-table/route-table.js';
export type { ProviderSpec } from './shared/provider-specs/provider-spec.js';
export type { Finding } from './shared/findings/finding.js';
export type { ServeLogEntry as Verdict } from './tools/services/serve/serve-log.js';
export type { ClientReport, ClientCell, ClientCellStatus } from './tools/services/run-report/client-report.js';

let specs: Map<string, ProviderSpec> | undefined;
let table: RouteTable | undefined;

/** How `judgeRequest` answers: `strict` refuses contested rules (as `--strict` does); `model` for a body without one. */
export interface JudgeRequestOptions {
  /** Contested rules refuse, except one a recording shows the real provider accepting (decision 0044). */
  strict?: boolean;
  /** The model whose rule set applies when the body names none (Gemini and Bedrock name it in the path). */
  model?: string;
}

/**
 * What the provider's mock would say about this request body, by the bundled provider spec, judged with the rule set
 * of the body's `model` (or `options.model`; neither: the rules every model shares). One finding per broken rule, the
 * one the mock answers with first. A finding marked `lenient: true` belongs to a contested rule (public sources
 * disagree) that the mock answers as its lenient side: it accepts and warns. The mock refuses the request exactly
 * when some finding is not `lenient`; it accepts an empty list, and one of lenient findings only (with warnings).
 * `provider` is a spec id (`deepseek`, `anthropic`, `gemini`, ...) or a ProviderSpec of your own.
 */
export function judgeRequest(
  provider: string | ProviderSpec,
  body: unknown,
  options: JudgeRequestOptions = {},
): Finding[] {
  if (typeof provider !== 'string') return judgeAsTheMock(provider, body, options);
  specs ??= new Map(loadProviderSpecs().map((s) => [s.id, s]));
  const spec = specs.get(provider);
  if (!spec)
    throw new ApiUsageError(`judgeRequest: no provider "${provider}" (one of ${[...specs.keys()].join(', ')})`);
  return judgeAsTheMock(spec, body, options);
}

/** Whether the mock refuses a request with these findings (judgeRequest's): some finding is not `lenient`. */
export function refusesRequest(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.lenient !== true);
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
