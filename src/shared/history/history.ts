/**
 * The canonical conversation every family converts from and back to.
 *
 * One assistant message may hold several reasoning carriers at once (a turn captured from an
 * aggregator has `reasoning`, `reasoning_content` and `reasoning_details` together); the route,
 * not the history, decides which of them travel. Field names follow the OpenAI-chat wire shape on
 * purpose: it is the shape history files already have in the wild.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A content part, for histories whose content is an array (multimodal user turns, Anthropic text). */
export interface TextPart {
  type: 'text';
  text: string;
}

export type Content = string | TextPart[] | null;

/**
 * One typed reasoning item. The OpenRouter shapes (`reasoning.*`) are the lingua franca of
 * aggregators; the Anthropic shapes (`thinking`, `redacted_thinking`) are what Anthropic-family
 * routes (direct, Bedrock, Vertex, Foundry) store so a reloaded turn replays byte-identically.
 * Unknown extra keys on an item are kept and replayed verbatim: signatures cover them.
 */
export type ReasoningDetail =
  | ReasoningTextDetail
  | ReasoningSummaryDetail
  | ReasoningEncryptedDetail
  | AnthropicThinkingDetail
  | AnthropicRedactedThinkingDetail;

interface DetailCommon {
  id?: string | null;
  format?: string;
  index?: number;
  [extra: string]: unknown;
}

export interface ReasoningTextDetail extends DetailCommon {
  type: 'reasoning.text';
  text: string;
  signature?: string | null;
}

export interface ReasoningSummaryDetail extends DetailCommon {
  type: 'reasoning.summary';
  summary: string;
}

export interface ReasoningEncryptedDetail extends DetailCommon {
  type: 'reasoning.encrypted';
  data: string;
}

export interface AnthropicThinkingDetail {
  type: 'thinking';
  thinking: string;
  signature?: string;
  [extra: string]: unknown;
}

export interface AnthropicRedactedThinkingDetail {
  type: 'redacted_thinking';
  data: string;
  [extra: string]: unknown;
}

/**
 * Carriers that have no place in the standard shape (Gemini thoughtSignature, Copilot
 * reasoning_text / reasoning_opaque / thought_signature). `route` names the only route that may
 * ever receive `fields`; every other route must act as if the record did not exist.
 */
export interface NativeCarrierRecord {
  route: string;
  fields: Record<string, unknown>;
}

export interface Message {
  role: Role;
  content: Content;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  reasoning_content?: string;
  reasoning?: string;
  reasoning_details?: ReasoningDetail[];
  native?: NativeCarrierRecord;
  /** Which model (and upstream, when a gateway names it) wrote this assistant turn, as its answer says. */
  produced_by?: ProducedBy;
}

/** history.schema.json `produced_by`: thinking a binding model wrote is bound to that model. */
export interface ProducedBy {
  model: string;
  upstream?: string;
}

export interface History {
  messages: Message[];
}

/** The reasoning carrier fields of the standard shape, in the order routes list them. */
export const STANDARD_CARRIER_FIELDS = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;
export type StandardCarrierField = (typeof STANDARD_CARRIER_FIELDS)[number];
