import type { FamilyId } from '../../shared/wire/families.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/**
 * Does the request end with tool results, the middle of a tool loop? Read per family on the provider side: a chat
 * `tool` message, a Messages user turn of tool_result blocks, Bedrock toolResult blocks, a Gemini functionResponse, a
 * Responses function_call_output item.
 */
export function endsWithToolResult(family: FamilyId, body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  const list = (body.messages ?? body.contents ?? body.input) as unknown;
  if (!Array.isArray(list) || list.length === 0) return false;
  const last = list.at(-1) as unknown;
  if (!isPlainObject(last)) return false;
  const blocks = (key: string) => (Array.isArray(last[key]) ? (last[key] as unknown[]) : []).filter(isPlainObject);
  switch (family) {
    case 'openai-chat':
    case 'copilot':
      return last.role === 'tool';
    case 'anthropic-messages':
      return blocks('content').some((b) => b.type === 'tool_result');
    case 'bedrock-converse':
      return blocks('content').some((b) => isPlainObject(b.toolResult));
    case 'gemini':
      return blocks('parts').some((p) => isPlainObject(p.functionResponse));
    case 'openai-responses':
      return last.type === 'function_call_output';
  }
}
