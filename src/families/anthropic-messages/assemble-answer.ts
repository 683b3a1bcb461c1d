import type { Carriers } from '../../model/carriers.js';
import type { Message, ToolCall } from '../../model/history.js';
import type { ParsedAnswer } from '../family.js';
import { toStoredDetail, type AnthropicReasoningItem } from './anthropic-reasoning-items.js';

/** One content block of a Claude answer, however it arrived (Messages body, Converse body, either stream). */
export type AnswerBlock =
  | AnthropicReasoningItem
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

/**
 * The single place a Claude answer becomes an assistant message, so that a body and a stream of
 * the same answer cannot drift apart. Reasoning is stored Anthropic-shaped in `reasoning_details`
 * (what every Anthropic-family route replays from, identically after a reload); its readable
 * text also goes to `reasoning` so routes that only read text still get it.
 */
export function assembleAnswer(blocks: readonly AnswerBlock[], finishReason: string | null): ParsedAnswer {
  const details = blocks.filter((b): b is AnthropicReasoningItem => b.type === 'thinking' || b.type === 'redacted_thinking').map(toStoredDetail);
  const readable = blocks.flatMap((b) => (b.type === 'thinking' && b.thinking !== '' ? [b.thinking] : []));
  const texts = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  const toolCalls: ToolCall[] = blocks.flatMap((b) =>
    b.type === 'tool_use' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }] : [],
  );
  const carriers: Carriers = {};
  if (readable.length > 0) carriers.reasoning = readable.join('\n\n');
  if (details.length > 0) carriers.reasoning_details = details;
  const message: Message = {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...carriers,
  };
  return { message, carriers, finishReason };
}
