/**
 * The native record shapes the history schema defines (specs/schema/history.schema.json,
 * definitions geminiNativeFields / copilotNativeFields / responsesNativeFields / anthropicNativeFields), in words: what
 * a
 * refusal tells the user to write instead. Keyed by the bundled route keys that own each shape.
 */
const GEMINI =
  '{"parts": [{"kind": "text"|"thought", "chars": N, "thoughtSignature"?: "..."} | {"kind": "functionCall", "call": I, "thoughtSignature"?: "..."} | {"kind": "part", "part": {...}}]} (chars count characters of the message\'s content or reasoning, call indexes tool_calls), or the flat {"thoughtSignature": "..."}';
const COPILOT =
  '{"reasoning_opaque"?: "...", "reasoning_text"?: true | "text", "thought_signature"?: "...", "thought_signature_call"?: I} with reasoning_opaque or thought_signature';
const RESPONSES =
  '{"function_call_ids"?: {"<call_id>": "fc_..."}, "items"?: [{"kind": "reasoning", "id"} | {"kind": "message", "parts": [{"chars": N, "annotations"?}]} | {"kind": "call"} | {"kind": "item", "item": {...}}]}';

const CLAUDE =
  '{"blocks": [{"kind": "think"} | {"kind": "text", "chars": N, "extra"?: {...}} | {"kind": "call"} | {"kind": "block", "block": {"type": "...", ...}}]} (think and call take the next Claude reasoning item and tool call, chars counts characters of the message\'s content)';

export const NATIVE_RECORD_SHAPES: Readonly<Record<string, string>> = {
  anthropic: CLAUDE,
  'vertex-anthropic': CLAUDE,
  'foundry-anthropic': CLAUDE,
  gemini: GEMINI,
  'vertex-gemini': GEMINI,
  copilot: COPILOT,
  'openai-responses': RESPONSES,
  'xai-responses': RESPONSES,
};

/** The expected shape of a record filed under `route`, for a hint. */
export function expectedNativeShape(route: string): string {
  const shape = NATIVE_RECORD_SHAPES[route];
  return shape
    ? `a "${route}" native record's fields are ${shape}`
    : `a native record is {"route": "<route key>", "fields": {...}}`;
}
