import { isObject, type HistoryFormatId } from './history-format.js';

/** Anthropic content blocks that no other format writes: one of them names the file's format. */
const ANTHROPIC_BLOCKS = new Set(['thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'document']);
/** Keys only an OpenAI chat-completions export carries beside the canonical ones. */
const OPENAI_ONLY_KEYS = [
  'name',
  'refusal',
  'annotations',
  'audio',
  'function_call',
  'extra_content',
  'reasoning_text',
];

/**
 * The history format a parsed file most likely is, from its shape alone (`--history-format auto`):
 * Gemini's `contents`/`parts`, Anthropic's top-level `system` or its block kinds, an OpenAI export's
 * own keys; otherwise canonical, which `loadHistoryAs` widens to openai-chat when the schema refuses it.
 */
export function detectHistoryFormat(value: unknown): HistoryFormatId {
  if (!isObject(value)) return 'canonical';
  if (Array.isArray(value.contents) || 'systemInstruction' in value) return 'gemini-contents';
  const messages = Array.isArray(value.messages) ? value.messages.filter(isObject) : [];
  if (messages.some((m) => m.role === 'model' || Array.isArray(m.parts))) return 'gemini-contents';
  if ('system' in value) return 'anthropic-messages';
  const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter(isObject) : []));
  if (blocks.some((b) => typeof b.type === 'string' && ANTHROPIC_BLOCKS.has(b.type))) return 'anthropic-messages';
  if (messages.some((m) => OPENAI_ONLY_KEYS.some((k) => k in m))) return 'openai-chat';
  return 'canonical';
}
