import type { StandardCarrierField } from '../history/history.js';
import type { FamilyId } from '../wire/families.js';

/** Types mirroring specs/schema/routes.schema.json; the schema is the authority. */
export type Tier = 'standard' | 'strict' | 'must-echo';
export type { FamilyId };
export type ReplayPolicy = 'signed' | 'strip' | 'unsigned';

/** A model-version range read from the model id (see routes.schema.json#/definitions/version). */
export interface VersionRange {
  pattern: string;
  min?: string;
  below?: string;
  source?: string;
}

/** Model id substrings OR version ranges; either may hold. */
export interface ModelMatcher {
  models?: string[];
  versions?: VersionRange[];
}

export interface RouteMatch extends ModelMatcher {
  providers?: string[];
  hosts?: string[];
  local?: true;
  default?: true;
}

export interface VendorFlag {
  when?: ModelMatcher;
  set: Record<string, unknown>;
  source?: string;
}

/**
 * A rule of the upstream model that travels with it through gateways and other hosts: on each
 * listed route, a matching model's tool-call turns get the must-echo treatment.
 */
export interface UpstreamModelRule extends ModelMatcher {
  id: string;
  label: string;
  tier: 'must-echo';
  /** Real model ids the rule covers; the linter checks each matches. */
  examples: string[];
  sources: string[];
  on: { route: string; sources: string[]; notes?: string }[];
  notes?: string;
}

export interface ModelPolicy {
  models: string[];
  policy: ReplayPolicy;
}

/** Models of a route that do not reason: asked for no reasoning back (see routes.schema.json). */
export interface WithoutReasoning extends ModelMatcher {
  sources: string[];
  notes?: string;
}

/** A provider-side carrier a route issues and reads back (routes.schema.json `serverCarriers`). */
export type ServerCarrierKind = 'compaction';

export interface ServerCarrier {
  kind: ServerCarrierKind;
  sources: string[];
  notes?: string;
}

/** Models whose thinking blocks are bound to the prefix before them (routes.schema.json `thinkingBinding`). */
export interface ThinkingBinding {
  models: string[];
  sources: string[];
  notes?: string;
}

/** One upstream behind a gateway: the slug a request routes by and the name its answer gives (`provider`). */
export interface BoundUpstream {
  slug: string;
  name: string;
}

/** Gateway models whose signatures are bound to the upstream that issued them (routes.schema.json `upstreamBinding`). */
export interface UpstreamBinding {
  models: string[];
  upstreams: BoundUpstream[];
  sources: string[];
  notes?: string;
}

export interface RouteDefinition {
  id: string;
  label: string;
  match: RouteMatch;
  family: FamilyId;
  tier: Tier;
  fields: StandardCarrierField[];
  flags?: VendorFlag[];
  native?: string;
  modelPolicies?: ModelPolicy[];
  defaultPolicy?: ReplayPolicy;
  withoutReasoning?: WithoutReasoning;
  serverCarriers?: ServerCarrier[];
  thinkingBinding?: ThinkingBinding;
  upstreamBinding?: UpstreamBinding;
  sources?: string[];
  notes?: string;
}

export interface RouteTable {
  version: 1;
  routes: RouteDefinition[];
  upstreamModels?: UpstreamModelRule[];
}

/** Where a request goes: the three things route matching looks at. */
export interface RouteTarget {
  provider: string;
  host: string;
  model: string;
}

/** A route resolved for one target: everything the replay engine needs, nothing it must look up. */
export interface RoutePolicy {
  routeId: string;
  label: string;
  family: FamilyId;
  tier: Tier;
  fields: StandardCarrierField[];
  /** Vendor flags for this model, already merged, to be deep-merged into the body. */
  flags: Record<string, unknown>;
  native?: string;
  replayPolicy?: ReplayPolicy;
  /** Set when the table says this model does not reason: the request asks for no reasoning back (absent: it may). */
  withoutReasoning?: true;
  /** Provider-side carriers this route reads back (absent: none); only its own native record holds them. */
  serverCarriers?: ServerCarrierKind[];
  /** Set when this model binds thinking to its prefix: blocks whose prefix changed are left out. */
  bindsThinking?: true;
  /**
   * The route's models that bind thinking (thinkingBinding.models), whatever the target: a block one of them wrote is
   * bound to that model, so it is left out of a request to another model (absent: the route has none).
   */
  bindingModels?: string[];
  /**
   * Set when this gateway model's signatures are bound to the upstream that issued them (upstreamBinding): a turn
   * another of these upstreams wrote loses its signed reasoning_details on a request routed elsewhere.
   */
  boundUpstreams?: BoundUpstream[];
  /** The upstream-model rule that raised this route's tier for this model, if any. */
  upstreamRule?: string;
  target: RouteTarget;
}
