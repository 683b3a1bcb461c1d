import { mockSignatureIssued, verifyMockRedactedData, verifyMockThinkingSignature, type IssuedPlace } from '../mock-signature.js';

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
/** Places searched when a block fails where it stands: up to 16 reasoning blocks among up to 32 content blocks. */
const PLACES: IssuedPlace[] = ORDINALS.flatMap((o) => Array.from({ length: 2 * MAX_ORDINAL }, (_, at) => ({ blocks: o + 1, at })));

/**
 * What Claude says about one reasoning block at `ordinal` (its place among the message's
 * reasoning blocks; `place`: how many there are and the block's content index), in the message
 * that is or is not the latest assistant message:
 * - a thinking block without its `thinking` / `signature` key: pydantic's `Field required`
 *   (LibreChat-AI/agents#279; earendil-works/pi#1523);
 * - a signature Claude never issued (forged, foreign, empty, truncated): `Invalid signature`
 *   anywhere (anthropics/claude-code#10627, OpenRouterTeam/ai-sdk-provider#423);
 * - a signature Claude issued but for other text or another place (the block was edited, emptied
 *   or moved, a sibling dropped, a content block before it dropped): in the latest assistant
 *   message "cannot be modified" (anthropics/claude-code#63284, #25361, BerriAI/litellm#25375,
 *   vercel/ai#14070), in earlier ones `Invalid signature` [INF: the reports show the former only
 *   for the latest message];
 * - redacted data that changed or moved: the same split.
 */
export function judgeClaudeBlock(block: ClaudeReasoningBlock, ordinal: number, latest: boolean, place: IssuedPlace = {}): ClaudeBlockVerdict {
  if (block.kind === 'redacted_thinking') {
    if (verifyMockRedactedData(block.data, ordinal) || verifyMockRedactedData(block.data, ordinal, undefined, place)) return 'ok';
    const moved = ORDINALS.some((o) => o !== ordinal && verifyMockRedactedData(block.data, o)) || issuedPlace(block, ordinal) !== undefined;
    return latest || moved ? 'blocks-modified' : 'invalid-redacted';
  }
  if (!block.hasThinkingKey) return 'thinking-field-required';
  if (!block.hasSignatureKey || typeof block.signature !== 'string') return 'missing-signature';
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  if (verifyMockThinkingSignature(text, ordinal, block.signature) || verifyMockThinkingSignature(text, ordinal, block.signature, undefined, place)) return 'ok';
  return latest && mockSignatureIssued(block.signature) ? 'blocks-modified' : 'invalid-signature';
}

/** Where Claude issued this block, intact and at this ordinal, when that was another place than the common one; undefined when it did not. */
function issuedPlace(block: ClaudeReasoningBlock, ordinal: number): IssuedPlace | undefined {
  if (block.kind === 'thinking' && !mockSignatureIssued(block.signature)) return undefined;
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  const intact = (place: IssuedPlace) =>
    block.kind === 'redacted_thinking' ? verifyMockRedactedData(block.data, ordinal, undefined, place) : verifyMockThinkingSignature(text, ordinal, block.signature, undefined, place);
  return PLACES.find((place) => (place.blocks !== 1 || place.at !== ordinal) && intact(place));
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
    const verdict = judgeClaudeBlock(block, ordinal, latest, { blocks, at });
    if (verdict === 'ok') return;
    const issued = issuedPlace(block, ordinal);
    const keptWhereIssued = issued !== undefined && (issued.at ?? ordinal) === at && (issued.blocks ?? 1) > blocks;
    if (keptWhereIssued) dropped ??= { verdict, at: reasoning.at(-1)!.at + 1, ordinal: blocks, dropped: (issued.blocks ?? 1) - blocks };
    else findings.push({ verdict, at, ordinal });
  });
  return dropped ? [...findings, dropped] : findings;
}
