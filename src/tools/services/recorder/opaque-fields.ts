/**
 * Strings that are signed or encrypted reasoning: opaque to us, replayable only byte for byte.
 * Redaction never alters them and the credential sweep never judges them (random base64 sooner or
 * later contains `AKIA...`-looking runs). Named by their key; `data` only beside the `type` that
 * makes it a blob (Anthropic redacted_thinking, OpenRouter reasoning.encrypted), since `data` is
 * also every SSE event's text.
 */
const OPAQUE_KEYS = new Set([
  'signature',
  'encrypted_content',
  'thoughtSignature',
  'thought_signature',
  'reasoning_opaque',
  'redactedContent',
  'encrypted_reasoning',
]);
const OPAQUE_DATA_TYPES = new Set(['redacted_thinking', 'reasoning.encrypted']);

export function isOpaqueField(key: string, parent: unknown): boolean {
  if (OPAQUE_KEYS.has(key)) return true;
  if (key !== 'data' || typeof parent !== 'object' || parent === null) return false;
  const type = (parent as { type?: unknown }).type;
  return typeof type === 'string' && OPAQUE_DATA_TYPES.has(type);
}
