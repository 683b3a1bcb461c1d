import type { Carriers } from '../../history/carriers.js';
import type { Message, ProducedBy, ToolCall } from '../../../shared/history/history.js';
import type { ParsedAnswer } from '../family.js';
import { toStoredDetail, type AnthropicReasoningItem } from './anthropic-reasoning-items.js';
import { anthropicNativeRecord, type AnthropicBlockRecord } from './anthropic-native.js';

/** One content block of a Claude answer, however it arrived (Messages body, Converse body, either stream). */
export type AnswerBlock =
  | AnthropicReasoningItem
  | { type: 'text'; text: string; extra?: Record<string, unknown> }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  /** A well-formed block this harness has no model for (server tools, future kinds): kept verbatim. */
  | { type: 'block'; block: Record<string, unknown> };

/**
 * The single place a Claude answer becomes an assistant message, so that a body and a stream of
 * the same answer cannot drift apart. Reasoning is stored Anthropic-shaped in `reasoning_details`
 * (what every Anthropic-family route replays from, identically after a reload); its readable
 * text also goes to `reasoning` so routes that only read text still get it.
 *
 * When the answer holds what the standard shape has no place for (a verbatim block, citations on a
 * text block), the block order goes to a native record under `nativeKey`, so the route that issued
 * the answer gets it back as it came. The model the answer names is kept with its reasoning (`produced_by`). A surface with no native key (Bedrock) cannot replay such a
 * block: it is left out and named in `notes`, never silently.
 */
export function assembleAnswer(
  blocks: readonly AnswerBlock[],
  finishReason: string | null,
  nativeKey?: string,
  producedBy?: ProducedBy,
): ParsedAnswer {
  const details = blocks
    .filter((b): b is AnthropicReasoningItem => b.type === 'thinking' || b.type === 'redacted_thinking')
    .map(toStoredDetail);
  const readable = blocks.flatMap((b) => (b.type === 'thinking' && b.thinking !== '' ? [b.thinking] : []));
  const texts = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  const toolCalls: ToolCall[] = blocks.flatMap((b) =>
    b.type === 'tool_use'
      ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }]
      : [],
  );
  const carriers: Carriers = {};
  if (readable.length > 0) carriers.reasoning = readable.join('\n\n');
  if (details.length > 0) carriers.reasoning_details = details;
  const notes: string[] = [];
  const unplaced = blocks.some((b) => b.type === 'block' || (b.type === 'text' && b.extra !== undefined));
  if (unplaced && nativeKey !== undefined) {
    const layout: AnthropicBlockRecord[] = blocks.map((b) => {
      if (b.type === 'thinking' || b.type === 'redacted_thinking') return { kind: 'think' };
      if (b.type === 'tool_use') return { kind: 'call' };
      if (b.type === 'block') return { kind: 'block', block: b.block };
      return b.extra !== undefined
        ? { kind: 'text', chars: b.text.length, extra: b.extra }
        : { kind: 'text', chars: b.text.length };
    });
    carriers.native = anthropicNativeRecord(nativeKey, layout);
  } else if (unplaced) {
    for (const b of blocks)
      if (b.type === 'block')
        notes.push(`a ${String(b.block.type)} block was skipped: this surface has no record to replay it from`);
  }
  const message: Message = {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...carriers,
    // Recorded only with reasoning: it says which model the turn's thinking is bound to (routes.json thinkingBinding).
    ...(producedBy && details.length > 0 ? { produced_by: producedBy } : {}),
  };
  return { message, carriers, finishReason, ...(notes.length > 0 ? { notes } : {}) };
}
