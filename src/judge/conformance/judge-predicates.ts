import type { Message, ReasoningDetail } from '../../shared/history/history.js';

/**
 * The judge's own small predicates over history. They are written here on purpose, from the specs
 * and the README's rules, and not imported from the engine's carrier selection: a mistake shared by
 * the engine and its judge would be invisible to both (issue 10).
 */

/**
 * The must-echo pad: a single space. The provider specs say why: DeepSeek V4 Pro answers 400 to an
 * empty reasoning_content (its variant's echo rule has allowEmpty: false), and the seed's pad is `" "`.
 */
export const JUDGE_PAD = ' ';

const text = (s: unknown): s is string => typeof s === 'string' && s.trim() !== '';

/** An assistant turn that called tools: where must-echo providers require reasoning_content. */
export function judgeIsToolCallTurn(m: Message): boolean {
  return m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
}

/** Readable typed items: OpenRouter `reasoning.text` / `reasoning.summary`, Anthropic `thinking`. */
function readableItem(d: ReasoningDetail): boolean {
  const r = d as Record<string, unknown>;
  if (d.type === 'reasoning.text') return text(r.text);
  if (d.type === 'reasoning.summary') return text(r.summary);
  if (d.type === 'thinking') return text(r.thinking);
  return false;
}

/** Reasoning a must-echo route can send as text: either readable field, or any readable typed item. */
export function judgeHasReadableReasoning(m: Message): boolean {
  return text(m.reasoning_content) || text(m.reasoning) || (m.reasoning_details ?? []).some(readableItem);
}

/** Anything stored at all: readable text or any typed item (encrypted ones included). */
export function judgeHasStoredReasoning(m: Message): boolean {
  return text(m.reasoning_content) || text(m.reasoning) || (m.reasoning_details?.length ?? 0) > 0;
}

const CLAUDE_FORMAT = 'anthropic-claude-v1';

/**
 * The opaque strings Claude must get back verbatim, in stored order: signatures of signed thinking
 * and redacted blobs, in Anthropic's spelling or OpenRouter's with format anthropic-claude-v1
 * (README, "Only Claude's own reasoning reaches Claude"). Other formats never go to Claude.
 */
export function judgeClaudeOpaqueStrings(details: readonly ReasoningDetail[] | undefined): string[] {
  const out: string[] = [];
  for (const d of details ?? []) {
    const r = d as Record<string, unknown>;
    if (d.type === 'thinking' && text(r.signature)) out.push(r.signature as string);
    else if (d.type === 'redacted_thinking' && text(r.data)) out.push(r.data as string);
    else if (d.type === 'reasoning.text' && r.format === CLAUDE_FORMAT && text(r.signature))
      out.push(r.signature as string);
    else if (d.type === 'reasoning.encrypted' && r.format === CLAUDE_FORMAT && text(r.data)) out.push(r.data as string);
  }
  return out;
}
