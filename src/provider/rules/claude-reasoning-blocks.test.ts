import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { mockRedactedData, mockSignThinking } from '../signing/mock-signature.js';
import { judgeClaudeMessage, type PlacedClaudeBlock } from './claude-reasoning-blocks.js';

/**
 * Reasoning block `ordinal` of an answer that held `blocks` of them, each followed by a text block, as Claude issued
 * it: odd places redacted.
 */
function issued(ordinal: number, blocks: number): PlacedClaudeBlock['block'] {
  const place = { blocks, at: 2 * ordinal };
  if (ordinal % 2 === 1)
    return {
      kind: 'redacted_thinking',
      data: mockRedactedData(`r${ordinal}`, ordinal, undefined, place),
      hasThinkingKey: false,
      hasSignatureKey: false,
    };
  const thinking = `thought ${ordinal}`;
  return {
    kind: 'thinking',
    thinking,
    signature: mockSignThinking(thinking, ordinal, undefined, place),
    hasThinkingKey: true,
    hasSignatureKey: true,
  };
}

/**
 * The answer's reasoning blocks (content index = 2 * ordinal), with the blocks at `dropped` and the text after each
 * left out.
 */
function replayed(blocks: number, dropped: readonly number[] = []): PlacedClaudeBlock[] {
  const kept = Array.from({ length: blocks }, (_, o) => issued(o, blocks)).filter((_, o) => !dropped.includes(o));
  return kept.map((block, i) => ({ at: 2 * i, block }));
}

const verdicts = (reasoning: PlacedClaudeBlock[], latest = true) =>
  judgeClaudeMessage(reasoning, latest).map((f) => [f.verdict, f.at]);

describe('judgeClaudeMessage', () => {
  it('accepts every block of a multi-block answer replayed as issued', () => {
    expect(verdicts(replayed(2))).toEqual([]);
    expect(verdicts(replayed(5))).toEqual([]);
  });

  it('a redacted block dropped after an intact thinking block in the latest message "cannot be modified", named where it stood (litellm#25375)', () => {
    const findings = judgeClaudeMessage(replayed(2, [1]), true);
    expect(findings).toEqual([{ verdict: 'blocks-modified', at: 1, ordinal: 1, dropped: 1 }]);
  });

  it('a block dropped before others moves them: each moved block is named at its own place', () => {
    expect(verdicts(replayed(3, [0]))).toEqual([
      ['blocks-modified', 0],
      ['blocks-modified', 2],
    ]);
  });

  it('an empty text block dropped between two reasoning blocks moves the second: it "cannot be modified" where it now stands (vercel/ai#14070)', () => {
    const kept = replayed(2).map((r, i) => ({ ...r, at: i }));
    expect(verdicts(kept)).toEqual([['blocks-modified', 1]]);
  });

  it('in an earlier message a dropped sibling reads as a bad signature, as other modifications there do', () => {
    expect(verdicts(replayed(2, [1]), false)).toEqual([['invalid-signature', 1]]);
  });

  it('keeps single-block signatures valid beside other blocks (answers signed before sequences were bound)', () => {
    const legacy: PlacedClaudeBlock[] = [0, 1].map((o) => ({
      at: o,
      block: {
        kind: 'thinking',
        thinking: `t${o}`,
        signature: mockSignThinking(`t${o}`, o),
        hasThinkingKey: true,
        hasSignatureKey: true,
      },
    }));
    expect(verdicts(legacy)).toEqual([]);
  });

  test('dropping any blocks but not all of a latest answer is refused; nothing else is', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((n) => fc.tuple(fc.constant(n), fc.uniqueArray(fc.nat(n - 1), { minLength: 1, maxLength: n - 1 }))),
        ([blocks, dropped]) => {
          const found = judgeClaudeMessage(replayed(blocks, dropped), true);
          expect(found.length).toBeGreaterThan(0);
          expect(found.every((f) => f.verdict === 'blocks-modified')).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
