import type { EngineTarget } from '../engine-under-test.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { specHost } from '../../shared/provider-specs/provider-spec.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import type { RoutePolicy, RouteTable } from '../../shared/route-table/route-table.js';
import type { PresentedTarget } from '../../shared/scenarios/scenario.js';

/** The provider's path for this model, as its docs write it: `{model}` filled, the stream path when streaming. */
export function requestPath(spec: ProviderSpec, model: string, stream: boolean): string {
  const path = stream && spec.endpoint.streamPath ? spec.endpoint.streamPath : spec.endpoint.path;
  return path.replace('{model}', encodeURIComponent(model));
}

/**
 * The target the engine under test is told for one call: the provider spec's, or what the
 * scenario presents instead (a host in capitals, a look-alike host, another model id form). The
 * request still goes to the spec's mock; only the engine's view of the target changes.
 */
export function presentedTarget(spec: ProviderSpec, as: PresentedTarget | undefined, stream: boolean): EngineTarget {
  const host = as?.host ?? specHost(spec);
  const model = as?.model ?? spec.target.model;
  const base = new URL(spec.endpoint.baseUrl);
  return {
    provider: as?.provider ?? spec.target.provider,
    host,
    model,
    family: spec.family,
    baseUrl: as?.host ? `${base.protocol}//${as.host}${base.pathname.replace(/\/$/, '')}` : spec.endpoint.baseUrl,
    path: requestPath(spec, model, stream),
  };
}

/**
 * The route the judge holds the call against: the table's route for the presented target, or for
 * the target it must resolve like (`as.like`). The reference is resolved, never the look-alike, so
 * a mistake in host matching shows as a disagreement with the engine even where the engine and the
 * judge read the same table with the same code.
 */
export function expectedPolicy(table: RouteTable, target: EngineTarget, as: PresentedTarget | undefined): RoutePolicy {
  const like = { provider: target.provider, host: target.host, model: target.model, ...(as?.like ?? {}) };
  const policy = resolveRoute(table, like);
  // The policy names the target the engine was told (verdict keys, messages), whatever it resolved like.
  return { ...policy, target: { provider: target.provider, host: target.host, model: target.model } };
}
