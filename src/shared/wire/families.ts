/**
 * The wire API families, each described once. Both sides read this module: the engine builds
 * requests in these shapes, the provider side answers in them, the CLI offers them as choices.
 * It holds names and wire facts from the providers' API references only, never a rule about
 * what should be sent (that lives in specs/routes.json and specs/providers/), so sharing it
 * cannot hide a bug shared by the engine and its judges. It imports nothing.
 *
 * Adding a family: one entry here, one folder in src/engine/families/, one in
 * src/provider/families/, and data. See docs/adding-a-family.md.
 */

/** Carrier fields of the standard (chat-shaped) history as the chat wire names them. */
export type StandardWireField = 'reasoning_content' | 'reasoning' | 'reasoning_details';

/** How a request presents its API key (Vertex hosts take an OAuth token as Bearer whatever the family). */
export type AuthScheme =
  { kind: 'bearer' } | { kind: 'header'; header: string; extraHeaders?: Readonly<Record<string, string>> };

/**
 * How a stream is framed. `sse-data`: data-only SSE ending in `[DONE]` (chat completions);
 * `sse-named`: SSE with named events (Messages, Responses); `sse-json`: data-only SSE of whole
 * answer chunks (Gemini `alt=sse`); `aws-event-stream`: binary frames, modelled as one SSE event
 * per frame with the same JSON payload.
 */
export type StreamKind = 'sse-data' | 'sse-named' | 'sse-json' | 'aws-event-stream';

/**
 * How stored reasoning appears on this wire: a spelling fact of the API, read by the judge to derive
 * what a route puts on the wire without asking the engine.
 * - `message-keys`: each standard field a route lists is a key of the assistant message (the chat
 *   shape); a route owning a native record adds `nativeCarriers` beside them.
 * - `blocks`: the history's `reasoning_details` travel as `carrier` items (signed thinking blocks,
 *   encrypted items); `signedBy` names whose signatures the wire verifies, so reasoning signed by
 *   anyone else is never sent there; `replayPolicies` says the wire takes a route's per-model replay
 *   policy (signed, text only, or current tool loop only).
 * - `native`: only the route's native record carries reasoning, as `carrier`.
 */
export type ReasoningOnWire =
  | { readonly kind: 'message-keys'; readonly nativeCarriers?: readonly string[] }
  | {
      readonly kind: 'blocks';
      readonly carrier: string;
      readonly signedBy?: 'anthropic';
      readonly replayPolicies?: boolean;
    }
  | { readonly kind: 'native'; readonly carrier: string };

export interface FamilyDescriptor {
  readonly id: string;
  /** One line for `--help` and docs. */
  readonly title: string;
  /** Standard carrier fields the family can put on the wire; a route listing another is a table error. */
  readonly carrierFields: readonly StandardWireField[];
  /** Whether answers leave a native record (positions and blobs) filed under the route key. */
  readonly nativeRecord: boolean;
  /** Where reasoning travels in a request body: keys and block types, for reading a body. */
  readonly wireKeys: readonly string[];
  readonly auth: AuthScheme;
  /** Request path below the base URL; `{model}` is the URL-encoded model id. */
  readonly paths: { readonly request: string; readonly stream: string };
  readonly stream: StreamKind;
  readonly reasoningOnWire: ReasoningOnWire;
  /**
   * Top-level parameters every request of the family carries to ask for reasoning back (absent:
   * none), left out for a model the route table lists under `withoutReasoning`. The harm judge
   * holds them against the provider spec's `parameters` (a model that refuses one).
   */
  readonly reasoningRequest?: Readonly<Record<string, unknown>>;
}

const bearer = { kind: 'bearer' } as const;

export const FAMILY_DESCRIPTORS = [
  {
    id: 'openai-chat',
    title: 'OpenAI-compatible chat completions',
    carrierFields: ['reasoning_content', 'reasoning', 'reasoning_details'],
    nativeRecord: false,
    wireKeys: ['reasoning_content', 'reasoning', 'reasoning_details'],
    auth: bearer,
    paths: { request: '/chat/completions', stream: '/chat/completions' },
    stream: 'sse-data',
    reasoningOnWire: { kind: 'message-keys' },
  },
  {
    id: 'anthropic-messages',
    title: 'Anthropic Messages API (also Vertex rawPredict and Foundry)',
    carrierFields: ['reasoning_details'],
    // Block order with server tool blocks and citations (families/anthropic-messages/anthropic-native.ts).
    nativeRecord: true,
    wireKeys: ['thinking', 'redacted_thinking'],
    // https://docs.anthropic.com/en/api/versioning
    auth: { kind: 'header', header: 'x-api-key', extraHeaders: { 'anthropic-version': '2023-06-01' } },
    paths: { request: '/v1/messages', stream: '/v1/messages' },
    stream: 'sse-named',
    // Only Anthropic verifies these signatures: https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
    reasoningOnWire: { kind: 'blocks', carrier: 'thinking', signedBy: 'anthropic' },
  },
  {
    id: 'bedrock-converse',
    title: 'Amazon Bedrock Converse / ConverseStream',
    carrierFields: ['reasoning_details'],
    nativeRecord: false,
    wireKeys: ['reasoningContent'],
    // A Bedrock API key (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html); without one the
    // recorder SigV4-signs from the AWS variables (recorder/aws-sigv4.ts).
    auth: bearer,
    paths: { request: '/model/{model}/converse', stream: '/model/{model}/converse-stream' },
    stream: 'aws-event-stream',
    reasoningOnWire: { kind: 'blocks', carrier: 'reasoningContent', signedBy: 'anthropic', replayPolicies: true },
  },
  {
    id: 'gemini',
    title: 'Gemini generateContent (Gemini API and Vertex AI)',
    // Gemini reads no standard carrier: its reasoning travels as thoughtSignature in the native record.
    carrierFields: [],
    nativeRecord: true,
    wireKeys: ['thoughtSignature', 'thought_signature'],
    auth: { kind: 'header', header: 'x-goog-api-key' },
    paths: { request: '/models/{model}:generateContent', stream: '/models/{model}:streamGenerateContent?alt=sse' },
    stream: 'sse-json',
    reasoningOnWire: { kind: 'native', carrier: 'thoughtSignature' },
  },
  {
    id: 'openai-responses',
    title: 'OpenAI Responses API, stateless (store: false)',
    carrierFields: ['reasoning_details'],
    nativeRecord: true,
    wireKeys: ['encrypted_content'],
    auth: bearer,
    paths: { request: '/responses', stream: '/responses' },
    stream: 'sse-named',
    reasoningOnWire: { kind: 'blocks', carrier: 'reasoning' },
    reasoningRequest: { include: ['reasoning.encrypted_content'], reasoning: { summary: 'auto' } },
  },
  {
    id: 'copilot',
    title: 'GitHub Copilot chat completions (reasoning_text / reasoning_opaque)',
    carrierFields: ['reasoning_content', 'reasoning'],
    nativeRecord: true,
    wireKeys: ['reasoning_text', 'reasoning_opaque', 'thought_signature'],
    auth: bearer,
    paths: { request: '/chat/completions', stream: '/chat/completions' },
    stream: 'sse-data',
    reasoningOnWire: {
      kind: 'message-keys',
      nativeCarriers: ['reasoning_opaque', 'reasoning_text', 'thought_signature'],
    },
  },
] as const satisfies readonly FamilyDescriptor[];

export type FamilyId = (typeof FAMILY_DESCRIPTORS)[number]['id'];

/** Every family id, in registration order (CLI choices, schema enums). */
export const FAMILY_IDS: readonly FamilyId[] = FAMILY_DESCRIPTORS.map((d) => d.id);

const byId = new Map<string, FamilyDescriptor>(FAMILY_DESCRIPTORS.map((d) => [d.id, d]));

export function isFamilyId(value: string): value is FamilyId {
  return byId.has(value);
}

export function familyDescriptor(id: FamilyId): FamilyDescriptor {
  return byId.get(id)!;
}

/** Standard carrier fields each family can carry, by id (the route-table lint reads this). */
export const FAMILY_CARRIER_FIELDS: Readonly<Record<FamilyId, readonly StandardWireField[]>> = Object.fromEntries(
  FAMILY_DESCRIPTORS.map((d): [FamilyId, readonly StandardWireField[]] => [d.id, d.carrierFields]),
) as Record<FamilyId, readonly StandardWireField[]>;
