import { mockSignatureIssued, verifyMockRedactedData, verifyMockThinkingSignature } from '../mock-signature.js';

/** One replayed Claude reasoning block, wherever it came from (Messages content, OpenRouter reasoning_details). */
export interface ClaudeReasoningBlock {
  kind: 'thinking' | 'redacted_thinking';
  /** undefined when the key is absent. */
  thinking?: unknown;
  signature?: unknown;
  hasThinkingKey: boolean;
  hasSignatureKey: boolean;
  data?: unknown;
}

export type ClaudeBlockVerdict = 'ok' | 'thinking-field-required' | 'missing-signature' | 'invalid-signature' | 'blocks-modified' | 'invalid-redacted';

/** Claude turns hold a handful of reasoning blocks; a block verified at another ordinal was moved. */
const MAX_ORDINAL = 16;

/**
 * What Claude says about one reasoning block at `ordinal` (its place among the message's reasoning
 * blocks), in the message that is or is not the latest assistant message:
 * - a thinking block without its `thinking` / `signature` key: pydantic's `Field required`
 *   (LibreChat-AI/agents#279; earendil-works/pi#1523);
 * - a signature Claude never issued (forged, foreign, empty, truncated): `Invalid signature`
 *   anywhere (anthropics/claude-code#10627, OpenRouterTeam/ai-sdk-provider#423);
 * - a signature Claude issued but for other text or another place (the block was edited, emptied,
 *   moved, or one before it dropped): in the latest assistant message "cannot be modified"
 *   (anthropics/claude-code#63284, #25361, BerriAI/litellm#25375), in earlier ones `Invalid
 *   signature` [INF: the reports show the former only for the latest message];
 * - redacted data that changed or moved: the same split.
 */
export function judgeClaudeBlock(block: ClaudeReasoningBlock, ordinal: number, latest: boolean): ClaudeBlockVerdict {
  if (block.kind === 'redacted_thinking') {
    if (verifyMockRedactedData(block.data, ordinal)) return 'ok';
    const moved = Array.from({ length: MAX_ORDINAL }, (_, o) => o).some((o) => o !== ordinal && verifyMockRedactedData(block.data, o));
    return latest || moved ? 'blocks-modified' : 'invalid-redacted';
  }
  if (!block.hasThinkingKey) return 'thinking-field-required';
  if (!block.hasSignatureKey || typeof block.signature !== 'string') return 'missing-signature';
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  if (verifyMockThinkingSignature(text, ordinal, block.signature)) return 'ok';
  return latest && mockSignatureIssued(block.signature) ? 'blocks-modified' : 'invalid-signature';
}
