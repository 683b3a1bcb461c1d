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
const ORDINALS = Array.from({ length: MAX_ORDINAL }, (_, o) => o);
/** Sequence lengths a block may have been issued in (1 is the single-block form). */
const SEQUENCES = ORDINALS.map((o) => o + 1);

/**
 * What Claude says about one reasoning block at `ordinal` (its place among the message's
 * `blocks` reasoning blocks), in the message that is or is not the latest assistant message:
 * - a thinking block without its `thinking` / `signature` key: pydantic's `Field required`
 *   (LibreChat-AI/agents#279; earendil-works/pi#1523);
 * - a signature Claude never issued (forged, foreign, empty, truncated): `Invalid signature`
 *   anywhere (anthropics/claude-code#10627, OpenRouterTeam/ai-sdk-provider#423);
 * - a signature Claude issued but for other text, another place or a longer or shorter sequence
 *   (the block was edited, emptied or moved, or a sibling dropped): in the latest assistant
 *   message "cannot be modified" (anthropics/claude-code#63284, #25361, BerriAI/litellm#25375), in
 *   earlier ones `Invalid signature` [INF: the reports show the former only for the latest message];
 * - redacted data that changed, moved or lost a sibling: the same split.
 */
export function judgeClaudeBlock(block: ClaudeReasoningBlock, ordinal: number, latest: boolean, blocks = 1): ClaudeBlockVerdict {
  if (block.kind === 'redacted_thinking') {
    if (verifyMockRedactedData(block.data, ordinal) || verifyMockRedactedData(block.data, ordinal, undefined, blocks)) return 'ok';
    const moved = ORDINALS.some((o) => SEQUENCES.some((n) => (o !== ordinal || n !== blocks) && verifyMockRedactedData(block.data, o, undefined, n)));
    return latest || moved ? 'blocks-modified' : 'invalid-redacted';
  }
  if (!block.hasThinkingKey) return 'thinking-field-required';
  if (!block.hasSignatureKey || typeof block.signature !== 'string') return 'missing-signature';
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  if (verifyMockThinkingSignature(text, ordinal, block.signature) || verifyMockThinkingSignature(text, ordinal, block.signature, undefined, blocks)) return 'ok';
  return latest && mockSignatureIssued(block.signature) ? 'blocks-modified' : 'invalid-signature';
}

/** How many reasoning blocks the message held when Claude issued this block intact at this place, if it did and that was more than one. */
function issuedAmong(block: ClaudeReasoningBlock, ordinal: number): number | undefined {
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  const intact = (n: number) =>
    block.kind === 'redacted_thinking' ? verifyMockRedactedData(block.data, ordinal, undefined, n) : verifyMockThinkingSignature(text, ordinal, block.signature, undefined, n);
  return SEQUENCES.find((n) => n > 1 && intact(n));
}

/** One reasoning block of a message, with its index among all the message's content blocks. */
export interface PlacedClaudeBlock {
  at: number;
  block: ClaudeReasoningBlock;
}

export interface ClaudeBlockFinding {
  verdict: Exclude<ClaudeBlockVerdict, 'ok'>;
  /** Content index Claude names: the block itself, or where a dropped block stood. */
  at: number;
  ordinal: number;
  /** Set when the blocks left are intact but a sibling after them was dropped. */
  dropped?: number;
}

/**
 * Claude's verdicts on one assistant message's reasoning blocks, in the Messages API's terms
 * (the Bedrock judge maps Converse blocks to them, so both surfaces share one reading). A block
 * dropped before others shifts their places and fails them; a block dropped after the others
 * leaves them intact, and Claude then names the place the dropped block stood, right after the
 * last block left ("messages.N.content.1" after a lone thinking block, BerriAI/litellm#25375).
 */
export function judgeClaudeMessage(reasoning: readonly PlacedClaudeBlock[], latest: boolean): ClaudeBlockFinding[] {
  const blocks = reasoning.length;
  const findings: ClaudeBlockFinding[] = [];
  let dropped: ClaudeBlockFinding | undefined;
  reasoning.forEach(({ at, block }, ordinal) => {
    const verdict = judgeClaudeBlock(block, ordinal, latest, blocks);
    if (verdict === 'ok') return;
    const among = issuedAmong(block, ordinal);
    if (among !== undefined && among > blocks) dropped ??= { verdict, at: reasoning.at(-1)!.at + 1, ordinal: blocks, dropped: among - blocks };
    else findings.push({ verdict, at, ordinal });
  });
  return dropped ? [...findings, dropped] : findings;
}
