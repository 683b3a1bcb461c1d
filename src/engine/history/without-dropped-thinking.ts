import type { History } from '../../shared/history/history.js';

/**
 * The history with the thinking blocks a provider reported dropped taken out (Anthropic `input_transformations`,
 * thinking_dropped, named by signature: families/anthropic-messages/dropped-thinking.ts). Each block is found by its
 * signature, so a turn's other blocks, its text and its tool calls stay verbatim. The history is changed in place, as
 * the engine stores it; answers how many blocks left.
 */
export function removeDroppedThinking(history: History, signatures: readonly string[]): number {
  if (signatures.length === 0) return 0;
  const gone = new Set(signatures);
  let removed = 0;
  history.messages.forEach((message, i) => {
    if (message.role !== 'assistant' || !message.reasoning_details) return;
    const kept = message.reasoning_details.filter((d) => {
      const drop = d.type === 'thinking' && typeof d.signature === 'string' && gone.has(d.signature);
      if (drop) removed++;
      return !drop;
    });
    if (kept.length === message.reasoning_details.length) return;
    const { reasoning_details: _all, ...rest } = message;
    history.messages[i] = kept.length ? { ...rest, reasoning_details: kept } : rest;
  });
  return removed;
}
