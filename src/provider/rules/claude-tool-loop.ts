/**
 * Where Claude's "final assistant message must start with a thinking block" rule looks. A tool-use
 * loop is one assistant turn spread over several messages; it starts after the last user message
 * that says something other than tool results. Inside a loop (the request ends in tool results),
 * the loop's first assistant message must open with thinking when thinking is on.
 *
 * Anthropic's wording speaks of "a final `assistant` message ... (preceeding the lastmost set of
 * `tool_use` and `tool_result` blocks)"; checking the loop's first assistant message is our reading
 * of "tool use loops are part of one assistant turn" [INF]. It also holds for models without
 * interleaved thinking, whose later loop messages carry no thinking of their own.
 */
export interface LoopMessage {
  role: string;
  /** Block kinds in order: 'thinking', 'text', 'tool_use', 'tool_result', ... */
  kinds: string[];
}

/** Index of the assistant message that must start with thinking, or undefined when not in a tool loop. */
export function toolLoopOpener(messages: readonly LoopMessage[]): number | undefined {
  const last = messages.at(-1);
  const onlyResults = (m: LoopMessage) => m.kinds.length > 0 && m.kinds.every((k) => k === 'tool_result');
  if (!last || last.role !== 'user' || !onlyResults(last)) return undefined;
  let start = messages.length - 1;
  while (start > 0 && !(messages[start - 1]!.role === 'user' && !onlyResults(messages[start - 1]!))) start--;
  for (let i = start; i < messages.length; i++) if (messages[i]!.role === 'assistant') return i;
  return undefined;
}
