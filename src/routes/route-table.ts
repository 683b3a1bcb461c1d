import type { StandardCarrierField } from '../model/history.js';

/** Types mirroring specs/schema/routes.schema.json; the schema is the authority. */
export type Tier = 'standard' | 'strict' | 'must-echo';
export type FamilyId = 'openai-chat' | 'anthropic-messages' | 'bedrock-converse' | 'gemini' | 'openai-responses' | 'copilot';
export type ReplayPolicy = 'signed' | 'strip' | 'unsigned';

export interface RouteMatch {
  providers?: string[];
  hosts?: string[];
  local?: true;
  models?: string[];
  default?: true;
}

export interface VendorFlag {
  when?: { models: string[] };
  set: Record<string, unknown>;
  source?: string;
}

export interface ModelPolicy {
  models: string[];
  policy: ReplayPolicy;
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
  sources?: string[];
  notes?: string;
}

export interface RouteTable {
  version: 1;
  routes: RouteDefinition[];
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
  target: RouteTarget;
}
