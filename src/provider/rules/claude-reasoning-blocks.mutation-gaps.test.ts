import { describe, expect, it } from 'vitest';
import { mockRedactedData, mockSignThinking, type IssuedPlace } from '../signing/mock-signature.js';
import {
  judgeClaudeBlock,
  judgeClaudeMessage,
  type ClaudeReasoningBlock,
  type PlacedClaudeBlock,
} from './claude-reasoning-blocks.js';

/**
 * Each verdict of Claude's per-block and per-message reading, driven with hand-signed blocks
 * (the mock's own signer) rather than through a provider spec, so every branch is reached on its
 * own: what a replayed block gets back depends on which key it lacks, whether Claude issued its
 * blob at all, for which place, and whether the message is the latest one (decision 0029).
 */
const thinking = (text: string, ordinal: number, place: IssuedPlace = {}): ClaudeReasoningBlock => ({
  kind: 'thinking',
  thinking: text,
  signature: mockSignThinking(text, ordinal, undefined, place),
  hasThinkingKey: true,
  hasSignatureKey: true,
});
const redacted = (seed: string, ordinal: number, place: IssuedPlace = {}): ClaudeReasoningBlock => ({
  kind: 'redacted_thinking',
  data: mockRedactedData(seed, ordinal, undefined, place),
  hasThinkingKey: false,
  hasSignatureKey: false,
});
const FOREIGN = Buffer.alloc(48, 7).toString('base64');

describe('judgeClaudeBlock: a thinking block', () => {
  it('accepts a block replayed as issued, in the common place or the place it was bound to', () => {
    expect(judgeClaudeBlock(thinking('plan', 0), 0, true)).toBe('ok');
    expect(judgeClaudeBlock(thinking('plan', 1, { blocks: 2, at: 2 }), 1, false, { blocks: 2, at: 2 })).toBe('ok');
  });

  it('names a missing thinking key before a missing signature, and a signature that is absent or not a string', () => {
    expect(judgeClaudeBlock({ kind: 'thinking', hasThinkingKey: false, hasSignatureKey: false }, 0, true)).toBe(
      'thinking-field-required',
    );
    expect(
      judgeClaudeBlock({ kind: 'thinking', thinking: 'plan', hasThinkingKey: true, hasSignatureKey: false }, 0, true),
    ).toBe('missing-signature');
    expect(
      judgeClaudeBlock(
        { kind: 'thinking', thinking: 'plan', signature: null, hasThinkingKey: true, hasSignatureKey: true },
        0,
        true,
      ),
    ).toBe('missing-signature');
  });

  it('verifies a non-string thinking value as empty text', () => {
    const signedEmpty = mockSignThinking('', 0);
    expect(
      judgeClaudeBlock(
        { kind: 'thinking', thinking: null, signature: signedEmpty, hasThinkingKey: true, hasSignatureKey: true },
        0,
        false,
      ),
    ).toBe('ok');
    expect(
      judgeClaudeBlock(
        {
          kind: 'thinking',
          thinking: 3,
          signature: mockSignThinking('3', 0),
          hasThinkingKey: true,
          hasSignatureKey: true,
        },
        0,
        false,
      ),
    ).toBe('invalid-signature');
  });

  it('edited text: "cannot be modified" in the latest message, an invalid signature earlier', () => {
    const edited = { ...thinking('plan', 0), thinking: 'plan!' };
    expect(judgeClaudeBlock(edited, 0, true)).toBe('blocks-modified');
    expect(judgeClaudeBlock(edited, 0, false)).toBe('invalid-signature');
  });

  it('a signature Claude never issued is invalid even in the latest message', () => {
    expect(judgeClaudeBlock({ ...thinking('plan', 0), signature: FOREIGN }, 0, true)).toBe('invalid-signature');
    expect(judgeClaudeBlock({ ...thinking('plan', 0), signature: '' }, 0, true)).toBe('invalid-signature');
  });

  it('a block bound to one place and replayed at another fails', () => {
    expect(judgeClaudeBlock(thinking('plan', 0, { blocks: 2 }), 0, true, { blocks: 1 })).toBe('blocks-modified');
    expect(judgeClaudeBlock(thinking('plan', 0), 1, true)).toBe('blocks-modified');
  });
});

describe('judgeClaudeBlock: a redacted block', () => {
  it('accepts data replayed where it was issued (common or bound place)', () => {
    expect(judgeClaudeBlock(redacted('r', 0), 0, true)).toBe('ok');
    expect(judgeClaudeBlock(redacted('r', 1, { blocks: 3, at: 4 }), 1, false, { blocks: 3, at: 4 })).toBe('ok');
  });

  it('data never issued is invalid anywhere; data issued elsewhere is "cannot be modified" only in the latest message', () => {
    expect(judgeClaudeBlock({ ...redacted('r', 0), data: FOREIGN }, 0, true)).toBe('invalid-redacted');
    expect(judgeClaudeBlock({ ...redacted('r', 0), data: mockSignThinking('t', 0) }, 0, true)).toBe('invalid-redacted');
    const moved = redacted('r', 1);
    expect(judgeClaudeBlock(moved, 0, true)).toBe('blocks-modified');
    expect(judgeClaudeBlock(moved, 0, false)).toBe('invalid-redacted');
  });

  it('finds common-place data issued at any ordinal a Claude turn holds', () => {
    expect(judgeClaudeBlock(redacted('r', 15), 0, true)).toBe('blocks-modified');
    expect(judgeClaudeBlock(redacted('r', 0), 15, true)).toBe('blocks-modified');
  });

  it('reads bound data’s place from the blob: issued elsewhere is a modification, a forged place claim is invalid', () => {
    const bound = redacted('r', 0, { blocks: 2, at: 0 });
    expect(judgeClaudeBlock(bound, 0, true, { blocks: 1, at: 0 })).toBe('blocks-modified');
    const bytes = Buffer.from(bound.data as string, 'base64');
    bytes.writeUInt16BE(3, 50);
    expect(judgeClaudeBlock({ ...bound, data: bytes.toString('base64') }, 0, true, { blocks: 1, at: 0 })).toBe(
      'invalid-redacted',
    );
  });
});

/**
 * A message's reasoning blocks as Claude issued them: `kinds` in order, block o at content index `2 * o` (a text block
 * after each).
 */
function issuedMessage(kinds: readonly ('t' | 'r')[]): PlacedClaudeBlock[] {
  const blocks = kinds.length;
  return kinds.map((k, o) => ({
    at: 2 * o,
    block: k === 't' ? thinking(`thought ${o}`, o, { blocks, at: 2 * o }) : redacted(`r${o}`, o, { blocks, at: 2 * o }),
  }));
}

describe('judgeClaudeMessage', () => {
  it('accepts a message replayed as issued, and has nothing to say about a message without reasoning', () => {
    expect(judgeClaudeMessage(issuedMessage(['t', 'r', 't']), true)).toEqual([]);
    expect(judgeClaudeMessage([], true)).toEqual([]);
  });

  it('several blocks dropped at the end: one finding, after the last block left, counting them', () => {
    const kept = issuedMessage(['t', 't', 'r', 't']).slice(0, 2);
    expect(judgeClaudeMessage(kept, true)).toEqual([{ verdict: 'blocks-modified', at: 3, ordinal: 2, dropped: 2 }]);
  });

  it('a dropped sibling in an earlier message is an invalid signature, still named once where it stood', () => {
    const kept = issuedMessage(['r', 't', 't']).slice(0, 2);
    expect(judgeClaudeMessage(kept, false)).toEqual([{ verdict: 'invalid-redacted', at: 3, ordinal: 2, dropped: 1 }]);
  });

  it('names a broken block at its own place, before the dropped sibling', () => {
    const [first, second] = issuedMessage(['t', 't', 't']);
    const edited = { ...first!, block: { ...first!.block, thinking: 'edited' } };
    expect(judgeClaudeMessage([edited, second!], true)).toEqual([
      { verdict: 'blocks-modified', at: 0, ordinal: 0 },
      { verdict: 'blocks-modified', at: 3, ordinal: 2, dropped: 1 },
    ]);
  });

  it('a block moved to another content index is named where it now stands, not as a dropped sibling', () => {
    const [first, second] = issuedMessage(['t', 't', 't']);
    expect(judgeClaudeMessage([first!, { ...second!, at: 1 }], true)).toEqual([
      { verdict: 'blocks-modified', at: 1, ordinal: 1 },
      { verdict: 'blocks-modified', at: 2, ordinal: 2, dropped: 1 },
    ]);
  });

  it('a block replayed at another ordinal is named where it stands', () => {
    const [, second, third] = issuedMessage(['t', 't', 't']);
    expect(
      judgeClaudeMessage(
        [
          { ...second!, at: 0 },
          { ...third!, at: 2 },
        ],
        true,
      ).map((f) => [f.verdict, f.at, f.ordinal, f.dropped]),
    ).toEqual([
      ['blocks-modified', 0, 0, undefined],
      ['blocks-modified', 2, 1, undefined],
    ]);
  });

  it('a first block dropped while the others keep their content indexes: each is named where it stands, at its new ordinal', () => {
    const issued = [0, 1, 2].map((o) => ({ at: o, block: thinking(`thought ${o}`, o, { blocks: 3, at: o }) }));
    expect(judgeClaudeMessage(issued.slice(1), true)).toEqual([
      { verdict: 'blocks-modified', at: 1, ordinal: 0 },
      { verdict: 'blocks-modified', at: 2, ordinal: 1 },
    ]);
  });

  it('a block added after the issued ones is not read as a dropped sibling: every block is named where it stands', () => {
    const [first, second] = issuedMessage(['t', 'r']);
    const added = { at: 4, block: thinking('from another turn', 0) };
    expect(judgeClaudeMessage([first!, second!, added], true).map((f) => [f.at, f.ordinal, f.dropped])).toEqual([
      [0, 0, undefined],
      [2, 1, undefined],
      [4, 2, undefined],
    ]);
  });

  it('reads a bound block with a non-string thinking value as empty text when looking for where it was issued', () => {
    const block = { ...thinking('', 0, { blocks: 2, at: 0 }), thinking: 3 };
    expect(judgeClaudeMessage([{ at: 0, block }], true)).toEqual([
      { verdict: 'blocks-modified', at: 1, ordinal: 1, dropped: 1 },
    ]);
  });

  it('blocks bound to no place (signed before places were bound) are judged block by block', () => {
    const legacy: PlacedClaudeBlock[] = [{ at: 0, block: { ...thinking('a', 0), thinking: 'b' } }];
    expect(judgeClaudeMessage(legacy, true)).toEqual([{ verdict: 'blocks-modified', at: 0, ordinal: 0 }]);
  });

  it('an edited bound block is not mistaken for one kept where it was issued', () => {
    const [first, second] = issuedMessage(['t', 't', 't']);
    expect(judgeClaudeMessage([first!, { ...second!, block: { ...second!.block, thinking: 'edited' } }], true)).toEqual(
      [
        { verdict: 'blocks-modified', at: 2, ordinal: 1 },
        { verdict: 'blocks-modified', at: 3, ordinal: 2, dropped: 1 },
      ],
    );
  });
});
