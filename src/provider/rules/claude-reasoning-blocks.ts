import {
  mockIssuedWhere,
  mockSignatureIssued,
  verifyMockRedactedData,
  verifyMockThinkingSignature,
  type IssuedPlace,
  type IssuedWhere,
} from '../signing/mock-signature.js';

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

export type ClaudeBlockVerdict =
  'ok' | 'thinking-field-required' | 'missing-signature' | 'invalid-signature' | 'blocks-modified' | 'invalid-redacted';

/** Claude turns hold a handful of reasoning blocks; a block verified at another ordinal was moved. */
const MAX_ORDINAL = 16;
const ORDINALS = Array.from({ length: MAX_ORDINAL }, (_, o) => o);

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
 * - redacted data Claude never issued (edited, truncated, a thinking signature sent as `data`):
 *   "Invalid `data` in `redacted_thinking` block" anywhere (microsoft/vscode#320196, #318076);
 *   data it issued for another place: the same split as a moved signature.
 */
export function judgeClaudeBlock(
  block: ClaudeReasoningBlock,
  ordinal: number,
  latest: boolean,
  place: IssuedPlace = {},
): ClaudeBlockVerdict {
  if (block.kind === 'redacted_thinking') {
    if (verifyMockRedactedData(block.data, ordinal) || verifyMockRedactedData(block.data, ordinal, undefined, place))
      return 'ok';
    // Data Claude issued for another place (moved, or a sibling dropped) is a modification; data it
    // never issued (edited, truncated, a thinking signature sent as data) is invalid wherever it stands.
    // Only the latest message tells the two apart, so only there is it worth the search.
    return latest && redactedIssuedElsewhere(block.data, ordinal) ? 'blocks-modified' : 'invalid-redacted';
  }
  if (!block.hasThinkingKey) return 'thinking-field-required';
  if (!block.hasSignatureKey || typeof block.signature !== 'string') return 'missing-signature';
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  if (
    verifyMockThinkingSignature(text, ordinal, block.signature) ||
    verifyMockThinkingSignature(text, ordinal, block.signature, undefined, place)
  )
    return 'ok';
  return latest && mockSignatureIssued(block.signature) ? 'blocks-modified' : 'invalid-signature';
}

/** True when Claude issued this redacted data for another ordinal or place. */
function redactedIssuedElsewhere(data: unknown, ordinal: number): boolean {
  const where = mockIssuedWhere(data);
  if (where) return verifyMockRedactedData(data, where.ordinal, undefined, where);
  return ORDINALS.some((o) => o !== ordinal && verifyMockRedactedData(data, o));
}

/**
 * Where Claude issued this block intact, when it was bound to a place (read from the blob, then verified); undefined
 * when it was not.
 */
function issuedWhere(block: ClaudeReasoningBlock): IssuedWhere | undefined {
  const blob = block.kind === 'redacted_thinking' ? block.data : block.signature;
  const where = mockIssuedWhere(blob);
  if (!where) return undefined;
  const text = typeof block.thinking === 'string' ? block.thinking : '';
  const intact =
    block.kind === 'redacted_thinking'
      ? verifyMockRedactedData(block.data, where.ordinal, undefined, where)
      : verifyMockThinkingSignature(text, where.ordinal, block.signature, undefined, where);
  return intact ? where : undefined;
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
    const issued = issuedWhere(block);
    const keptWhereIssued =
      issued !== undefined && issued.ordinal === ordinal && issued.at === at && (issued.blocks ?? 1) > blocks;
    if (keptWhereIssued)
      dropped ??= { verdict, at: reasoning.at(-1)!.at + 1, ordinal: blocks, dropped: (issued.blocks ?? 1) - blocks };
    else findings.push({ verdict, at, ordinal });
  });
  return dropped ? [...findings, dropped] : findings;
}
