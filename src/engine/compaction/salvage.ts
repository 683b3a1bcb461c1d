import type { Message } from '../../shared/history/history.js';
import { checkpointSummary, isCheckpoint, makeCheckpoint, shadowedCheckpoints } from './checkpoint.js';

export const TOOL_OUTPUT_KEEP_CHARS = 200;
export const NEWEST_TOOL_OUTPUTS_KEPT = 2;

export interface SalvageResult {
  messages: Message[];
  /** For each message of `messages`, its index in the input. */
  from: number[];
  clearedToolOutputs: number;
  trimmedCheckpoints: number;
  droppedCheckpoints: number;
}

/**
 * The second chance when the tail walk alone did not reach the budget: clear old tool outputs
 * (over 200 characters, all but the 2 newest), trim long checkpoint summaries, drop shadowed
 * checkpoints. Never touches a carrier: reasoning is what this tool exists to keep. Returns
 * null unless the result is strictly smaller (by `price`) and still holds a user message, so it
 * can never make things worse.
 */
export function salvage(
  messages: readonly Message[],
  price: (m: Message) => number,
  maxSummaryChars: number,
): SalvageResult | null {
  const shadowed = new Set(shadowedCheckpoints(messages));
  const toolIndices = messages.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const newestTools = new Set(toolIndices.slice(-NEWEST_TOOL_OUTPUTS_KEPT));
  const out: Message[] = [];
  const from: number[] = [];
  let clearedToolOutputs = 0;
  let trimmedCheckpoints = 0;
  for (const [i, m] of messages.entries()) {
    if (shadowed.has(i)) continue;
    let next = m;
    if (
      m.role === 'tool' &&
      !newestTools.has(i) &&
      typeof m.content === 'string' &&
      m.content.length > TOOL_OUTPUT_KEEP_CHARS
    ) {
      next = { ...m, content: `[tool output cleared by compaction: ${m.content.length} characters]` };
      clearedToolOutputs += 1;
    } else if (isCheckpoint(m) && checkpointSummary(m).length > maxSummaryChars) {
      next = makeCheckpoint(checkpointSummary(m).slice(0, Math.max(0, maxSummaryChars)));
      trimmedCheckpoints += 1;
    }
    out.push(next);
    from.push(i);
  }
  const before = messages.reduce((n, m) => n + price(m), 0);
  const after = out.reduce((n, m) => n + price(m), 0);
  if (!(after < before) || !out.some((m) => m.role === 'user')) return null;
  return { messages: out, from, clearedToolOutputs, trimmedCheckpoints, droppedCheckpoints: shadowed.size };
}
