import type { RuleClass } from './rule-class.js';
import type { FamilyId } from '../wire/families.js';

/** Types mirroring specs/schema/provider.schema.json (the schema is the authority). */
export interface Rejection {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
  wording: 'verbatim' | 'unknown';
  kind?:
    | 'unknown-field'
    | 'missing-reasoning'
    | 'invalid-signature'
    | 'modified-reasoning'
    | 'missing-signature'
    | 'invalid-request'
    | 'malformed-body';
  sources: string[];
  contested?: Contested;
  notes?: string;
  /** The class of rule this refusal enforces, where its section does not say it. */
  ruleClass?: RuleClass;
}

/**
 * Public sources disagree: `sources` are the other side. The mock answers as the lenient side (accepts) and warns;
 * `--strict` refuses, unless `recordedAcceptance` names a recording of the real provider accepting (docs/decisions/0044).
 */
export interface Contested {
  notes: string;
  sources: string[];
  /** Recordings (cassettes, recorded fixtures or exchanges) among `sources` in which the real provider accepted. */
  recordedAcceptance?: string[];
}

export interface EchoRule {
  field: string;
  turns: 'tool-call-turns' | 'assistant-turns' | 'current-turn';
  level: 'required' | 'recommended';
  allowEmpty?: boolean;
  rejection?: string;
  source?: string;
  contested?: Contested;
  emptyContested?: Contested;
  unlessBody?: Array<{ pointer: string; equals: unknown }>;
  aliases?: string[];
  notes?: string;
}

/** A test on the request body: the value at `pointer` equals `equals`, or (with `exists`) is present or absent. */
/**
 * One test of the value at `pointer` in the request body (schema definitions/bodyCondition); every
 * test given must hold. Numeric tests hold only of numbers, `notIn` only of a value present.
 */
export interface BodyCondition {
  pointer: string;
  equals?: unknown;
  exists?: boolean;
  in?: unknown[];
  notIn?: unknown[];
  /** A regular expression on a string value. */
  matches?: string;
  below?: number;
  atLeast?: number;
  /** The value is a number greater than this one. */
  above?: number;
  /** The value is a number at least the number at this other pointer (a budget not below max_tokens). */
  atLeastPointer?: string;
}

export interface ForbidRule {
  path: string;
  ifType?: 'array' | 'object' | 'string' | 'number' | 'boolean' | 'null';
  roles?: string[];
  /** A regular expression on the request's model: specForModel keeps the rule only for models it matches. */
  models?: string;
  whenBody?: BodyCondition[];
  unlessBody?: BodyCondition[];
  contested?: Contested;
  rejection: string;
  rule?: string;
  notes?: string;
}

/**
 * Model ids an endpoint refuses whatever else the body says (spec `models.refuses`): retired or decommissioned ids,
 * forms a report shows refused, models no endpoint of which takes a feature the body asks for. Data from sources
 * only: an id the spec does not know stays served.
 */
export interface ModelRefusal {
  match: string;
  label: string;
  since?: string;
  whenBody?: BodyCondition[];
  streamOnly?: boolean;
  rejection: string;
  streamRejection?: string;
  /**
   * The refusal is of tools: a scenario that declares tools is not applicable to a target whose model this entry
   * matches (it would only measure the refusal, not the route).
   */
  tools?: boolean;
  sources: string[];
  notes?: string;
}

/** A path on the provider's host that refuses every request (spec `endpoint.unserved`). */
export interface UnservedPath {
  path: string;
  rejection: string;
  sources: string[];
  notes?: string;
}

export interface ModelVariant {
  match: string;
  label: string;
  /** Real model ids the variant covers: the harm judge assesses each as a target. */
  examples?: string[];
  without?: string[];
  echo?: EchoRule[];
  rejections?: Record<string, Rejection>;
  forbid?: ForbidRule[];
  messageRules?: MessageRule[];
  sources: string[];
  notes?: string;
}

/**
 * Where tool calls (or their results) sit in a history: inside items of `roles` (or whose `type` is one of `types`),
 * the objects at `path` (dotted, `*` for every index; the item itself when absent) that are of `kind` (own key or
 * `type` value), each naming its id at `id`.
 */
export interface ToolCallSite {
  roles?: string[];
  types?: string[];
  path?: string;
  kind?: string;
  id: string;
}

/**
 * One per-message rule (spec `messageRules`): exactly one check says what is checked; the finding is answered with
 * `rejection`. `whenBody`/`unlessBody` limit the rule to bodies that meet (or do not meet) every condition.
 */
export interface MessageRule {
  rejection: string;
  /** The top-level array walked (default `messages`). */
  list?: string;
  rule?: string;
  notes?: string;
  contested?: Contested;
  whenBody?: BodyCondition[];
  unlessBody?: BodyCondition[];
  fields?: {
    roles?: string[];
    empty?: string[];
    nonEmpty?: string[];
    /** Fields that must be present and exactly null. */
    null?: string[];
    /** The last item is exempt when it is of one of these roles (Anthropic's optional final assistant message). */
    exceptLast?: string[];
  };
  jsonString?: { roles?: string[]; path: string };
  alternation?: {
    ask: string[];
    answer: string[];
    skip?: string[];
    /** Items with any of these fields non-empty are not counted (an assistant tool-call turn in Mistral's template). */
    skipNonEmpty?: string[];
    repeatable?: string[];
    first?: 'ask' | 'answer';
    last?: 'ask' | 'answer';
  };
  contains?: { roles: string[] };
  follows?: {
    roles: string[];
    /** Only items holding a value at this dotted path must follow (a Gemini turn with a functionCall part). */
    having?: string;
    after: { roles: string[]; nonEmpty?: string[] };
    through?: string[];
    /** The item's key whose value fills {id} (a tool message's `tool_call_id`). */
    id?: string;
  };
  pairs?: {
    calls: ToolCallSite;
    results: ToolCallSite;
    refuse: 'unanswered-calls' | 'orphan-results' | 'excess-results';
    /** `adjacent`: the results of a call item sit in the items right after it; `before`: anywhere earlier. */
    within: 'adjacent' | 'before';
    /** `id` (default): the provider's rule, ids paired one by one; `count`: a mismatch of ids is refused only where the
     * numbers differ too (scenarios script result ids that a recorded call does not carry). */
    match?: 'id' | 'count';
    /**
     * Items that may stand for calls the mock cannot read (Responses' `item_reference` to a stored call): results after
     * one are not judged as orphans.
     */
    unreadCalls?: { types?: string[]; roles?: string[] };
  };
  successive?: { roles: string[]; skip?: string[] };
  ends?: {
    first?: string[];
    last?: string[];
    skip?: string[];
    /** The last item may be of another role when it has this field equal to this value (Mistral's `prefix: true`). */
    lastUnless?: { field: string; equals: unknown };
  };
  atMost?: { paths: string[]; equals?: unknown; max: number };
  blocks?: { roles?: string[]; path: string; kinds: string[]; notBeside: string[] };
  uniform?: { path: string };
  /** An object at `path` in an item that lacks `member` (absent or null); `name` fills {name} from the item. */
  lacks?: { path: string; member: string; name?: string };
}

export type UpstreamCheck =
  | 'claude-signatures'
  | 'claude-thinking-first'
  | 'gemini-preserved-details'
  | 'must-echo'
  | 'openai-encrypted-reasoning';

/** A path where the provider also serves another wire family, relative to the base URL's origin. */
export interface WireAlias {
  path: string;
  family: FamilyId;
  source: string;
  notes?: string;
}

/** A reasoning_details item a gateway issues: Claude's signed text, plain text, a summary, an opaque blob. */
export type ReasoningDetailKind = 'signed-text' | 'text' | 'summary' | 'encrypted';

/** What a gateway's answer carries for a model of this upstream: reasoning_details items of one format, in order. */
export interface UpstreamAnswer {
  format: string;
  details: ReasoningDetailKind[];
  sources: string[];
  notes?: string;
}

/** Signatures bound to the upstream that minted them behind a gateway (spec upstream `boundSignatures`). */
export interface BoundSignatures {
  pointer: string;
  upstreams: Array<{ match: string; signer: 'gemini' | 'vertex-gemini'; providerName: string }>;
  sources: string[];
  notes?: string;
}

export interface Upstream {
  models: string;
  /** Which upstream behind the gateway serves a request and signs its answer; another's signature is refused. */
  boundSignatures?: BoundSignatures;
  /** How the gateway answers for this upstream's models; the checks demand back only what it issues. */
  answer?: UpstreamAnswer;
  provider: string;
  providerName: string;
  checks: UpstreamCheck[];
  ownRejections?: Record<string, string>;
  /** Upstream rejection id -> the gateway's own rejection on its Responses path (endpoint.wireAliases). */
  responsesRejections?: Record<string, string>;
  /** Per check, or `claude-unsigned-text` (an unsigned anthropic-claude-v1 text item: refused, or dropped silently). */
  contested?: Partial<Record<UpstreamCheck | 'claude-unsigned-text', Contested>>;
  sources: string[];
  notes?: string;
}

/**
 * A request shape the real API accepts beyond its published definition, read as its canonical form: the value at
 * `path` (dotted, `*` for every item) of JSON type `ifType` is read as an array of one, or gets `defaults` for keys
 * it lacks.
 */
export interface AcceptedShape {
  path: string;
  ifType?: 'array' | 'object' | 'string' | 'number' | 'boolean' | 'null';
  /** Only an object whose members hold these values (`{"type": "input_image"}`). */
  when?: Record<string, string | number | boolean | null>;
  readAs: 'array' | { defaults: Record<string, unknown> };
  sources: string[];
  notes?: string;
}

/**
 * Anthropic's display setting: thinking that comes back as empty text and a signature ("omitted"), asked for in the
 * request at `pointer` or the server default for the models `omittedByDefault` matches.
 */
export interface ThinkingDisplay {
  pointer: string;
  omittedByDefault?: string;
  sources: string[];
  notes?: string;
}

/** A Responses compaction endpoint (spec `endpoint.compact`). */
export interface CompactEndpoint {
  path: string;
  output: 'user-messages-then-item' | 'item-only';
  sources: string[];
  notes?: string;
}

/**
 * Where a Chat Completions provider's answers take another shape than OpenAI's (spec `response.chatAnswer`): the
 * message without a `refusal` member, or each streamed tool call whole in one delta rather than its name, then its
 * arguments in pieces.
 */
export interface ChatAnswerShape {
  refusalMember: boolean;
  toolCallDeltas: 'split' | 'whole';
  sources: string[];
  notes?: string;
}

/**
 * Thinking bound to its conversation (spec `response.thinkingBinding`): which models check the binding, which only
 * record it, and where the request says what a failed check does.
 */
export interface ThinkingBinding {
  enforced: string;
  recorded?: string;
  pointer: string;
  sources: string[];
  notes?: string;
}

/**
 * How much replayed reasoning a provider takes in one request: at most `maxMessages` assistant messages carrying
 * `field`, beyond which the whole request is refused with `rejection`.
 */
export interface ReplayBudget {
  field: string;
  maxMessages: number;
  rejection: string;
  sources: string[];
  notes?: string;
}

/** Whether a model reasons (specs/schema/model-catalogue.schema.json). */
export type ModelReasoning = 'never' | 'optional' | 'always';

/** One model of a provider's catalogue: what its answers hold, and where that is written. */
export interface CatalogueEntry {
  id: string;
  aliases?: string[];
  label?: string;
  reasoning: ModelReasoning;
  /** For an optional model: whether it reasons when the request does not say. */
  reasoningByDefault?: boolean;
  /** The reasoning carriers its answers hold on this endpoint: a subset of the spec's response.carriers. */
  carriers: string[];
  tools: boolean;
  structuredOutput: 'json-schema' | 'json-object' | 'none' | 'unknown';
  limits: { context?: number; maxOutput?: number };
  released?: string;
  status?: 'active' | 'preview' | 'legacy' | 'deprecated';
  sources: string[];
  observed: string;
  notes?: string;
}

/** A reasoning parameter as the parameter tables name it (specs/schema/parameter-table.schema.json). */
export type ReasoningParameter =
  'effort' | 'budget' | 'level' | 'thinking' | 'sampling' | 'streaming' | 'structured-output';

/**
 * One model family and one reasoning parameter: the values it takes at `pointer` and the rejection of the others,
 * with sources; or `knownNone`, why no source states it.
 */
export interface ParameterRow {
  parameter: ReasoningParameter;
  models: string;
  pointer?: string;
  accepts?: unknown[];
  refuses?: unknown[];
  atLeast?: number;
  atMost?: number;
  whenBody?: BodyCondition[];
  rejection?: string;
  sources?: string[];
  observed: string;
  knownNone?: string;
  notes?: string;
}

/** The reasoning parameters one endpoint documents, and its rows per model family (spec `models.parameters`). */
export interface ParameterTable {
  documented: Array<{ parameter: ReasoningParameter; pointer: string; sources: string[]; notes?: string }>;
  rows: ParameterRow[];
  notes?: string;
}

/** The models one endpoint serves (spec `models.catalogue`); a model it does not name is still served. */
export interface ModelCatalogue {
  entries: CatalogueEntry[];
  notes?: string;
}

export interface ProviderSpec {
  id: string;
  label: string;
  family: FamilyId;
  endpoint: {
    baseUrl: string;
    path: string;
    streamPath?: string;
    /** A Responses compaction endpoint (POST /responses/compact) and what its output holds. */
    compact?: CompactEndpoint;
    aliases?: string[];
    wireAliases?: WireAlias[];
    unserved?: UnservedPath[];
  };
  target: { provider: string; model: string };
  request: {
    schema: Record<string, unknown>;
    unknownFieldRejection?: string;
    unknownTopLevelRejection?: string;
    /** Unexpected members worded on their own, by dotted path: the rejection answered instead of the unknown-field one. */
    unknownMemberRejections?: Record<string, string>;
    invalidRejection?: string;
    missingModelRejection?: string;
    missingFieldRejection?: string;
    nullMemberRejection?: string;
    /** The provider's own wording per failure class of the request schema (enum, type, required, range, length). */
    keywordRejections?: Partial<Record<'enum' | 'type' | 'required' | 'range' | 'length', string>>;
    /** Written by npm run specs:import: the published definition the schema was built from. */
    schemaSource?: Record<string, unknown>;
    joinFindings?: { pointer: string; separator: string };
    upstreamEnvelope?: string;
    accepts?: AcceptedShape[];
  };
  echo: EchoRule[];
  rejections: Record<string, Rejection>;
  forbid?: ForbidRule[];
  messageRules?: MessageRule[];
  models?: {
    catalogue?: ModelCatalogue;
    parameters?: ParameterTable;
    serves?: string;
    refuses?: ModelRefusal[];
    variants?: ModelVariant[];
  };
  /** A gateway's answers name the upstream that served them in this top-level member (spec `upstreamNamed`). */
  upstreamNamed?: { member: string; sources: string[]; notes?: string };
  upstreams?: Upstream[];
  ignores?: Array<{ field: string; source: string; notes?: string }>;
  parameters?: Record<
    string,
    { models?: string[]; wanted?: unknown; refusedBy?: string; source: string; notes?: string }
  >;
  reachedAs?: Array<{ provider: string; host?: string; source: string; notes?: string }>;
  replayBudget?: ReplayBudget;
  response: {
    carriers: string[];
    detailFormat?: string;
    thinkingDisplay?: ThinkingDisplay;
    thinkingBinding?: ThinkingBinding;
    chatAnswer?: ChatAnswerShape;
    sources?: string[];
  };
  secretEnv?: string;
  sources: string[];
  notes?: string;
}

/** The host route matching sees for this provider: the base URL's. */
export function specHost(spec: ProviderSpec): string {
  return new URL(spec.endpoint.baseUrl).host;
}

/** The full URL of a request path for this provider, with `{model}` filled in. */
export function specUrl(spec: ProviderSpec, model: string, stream = false): string {
  const path = (stream && spec.endpoint.streamPath ? spec.endpoint.streamPath : spec.endpoint.path).replaceAll(
    '{model}',
    encodeURIComponent(model),
  );
  return spec.endpoint.baseUrl.replace(/\/$/, '') + path;
}
