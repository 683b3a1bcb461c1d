/**
 * Google's documented stand-in for a function call that has no signature of its own (a turn
 * written by another model or route, or injected by the client): "skip_thought_signature_validator"
 * is accepted by both the Gemini API and Vertex (quoted from both docs in pydantic-ai; see
 * provider-wire-facts §8). Like the must-echo pad it is not reasoning; it only keeps Gemini 3
 * from refusing the whole history with "Function call is missing a thought_signature".
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';
