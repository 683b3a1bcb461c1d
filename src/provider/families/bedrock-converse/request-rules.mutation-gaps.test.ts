import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import { judgeBedrockConverse } from './request-rules.js';

/**
 * The Converse judge driven directly with hand-made specs and bodies. The family test reaches it
 * only through histories the engine builds, which always hold well-formed blocks in one order; these
 * cases pin what it names (message index, block, path, the kind Claude found) and where it looks
 * (which message is the latest assistant one, which user message splits the turns, which rejections
 * the spec defines). Stryker showed them missing (decision 0029).
 */
const CLAUDE_REJECTIONS = [
  'empty-content',
  'blank-text',
  'missing-signature',
  'invalid-signature',
  'blocks-modified',
  'invalid-redacted',
  'thinking-expected',
];
const spec = (
  rejections: string[] = CLAUDE_REJECTIONS,
  sources: Record<string, string[]> = {},
  model = 'anthropic.claude-test',
) =>
  ({
    target: { provider: 'bedrock', model },
    rejections: Object.fromEntries(rejections.map((r) => [r, { sources: sources[r] ?? [] }])),
  }) as unknown as ProviderSpec;
const claude = spec();
const r1 = spec(['reasoning-not-accepted', 'empty-content'], {}, 'deepseek.r1-test');
const oss = spec(['signature-not-supported', 'blank-text'], {}, 'openai.gpt-oss-test');

const user = (text = 'q') => ({ role: 'user', content: [{ text }] });
const results = (id = 't1') => ({
  role: 'user',
  content: [{ toolResult: { toolUseId: id, content: [{ text: 'ok' }] } }],
});
const thinking = (text: string, ordinal = 0, signature: unknown = mockSignThinking(text, ordinal)) => ({
  reasoningContent: { reasoningText: { text, signature } },
});
const unsignedThinking = (text: string) => ({ reasoningContent: { reasoningText: { text } } });
const redacted = (seed: string, ordinal = 0) => ({
  reasoningContent: { redactedContent: mockRedactedData(seed, ordinal) },
});
const toolUse = (id = 't1') => ({ toolUse: { toolUseId: id, name: 'lookup', input: {} } });
const assistant = (...content: unknown[]) => ({ role: 'assistant', content });
const THINKING_ON = { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } } };

const judged = (messages: unknown[], s = claude, extra: Record<string, unknown> = {}) =>
  judgeBedrockConverse(s, { ...extra, messages });
const verdicts = (messages: unknown[], s = claude, extra: Record<string, unknown> = {}) =>
  judged(messages, s, extra).map((f) => [f.rejection, f.params.index, f.params.block]);

describe('judgeBedrockConverse: Converse checks', () => {
  it('names a message with no content block, by index and path, only where the spec defines it', () => {
    expect(judged([user(), assistant(), user('again')])).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'empty-content',
        params: { index: 1, path: 'messages.1.content' },
        detail: 'message 1 has no content block',
      },
    ]);
    expect(judged([user(), assistant(), user('again')], oss)).toStrictEqual([]);
    // A content that is not a list is the schema judge's business, not an empty one.
    expect(judged([user(), { role: 'assistant', content: 'hi' }, user('again')])).toStrictEqual([]);
  });

  it('names a blank text block by message, block and path; uncontested where the message holds no reasoning', () => {
    expect(judged([user(), assistant({ text: 'fine' }, { text: ' \n' }), user('again')], oss)).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'blank-text',
        params: { index: 1, block: 1, path: 'messages.1.content.1.text' },
        detail: 'message 1 block 1 is blank text',
      },
    ]);
    expect(verdicts([user(''), assistant({ text: 'x' })], oss)).toStrictEqual([['blank-text', 0, 0]]);
    expect(judged([user(), assistant({ text: '' })], spec(['empty-content']))).toStrictEqual([]);
    expect(judged([user(), assistant({ text: 'not blank' }, { image: {} })], oss)).toStrictEqual([]);
  });

  it('contests a blank text beside Claude reasoning, citing the spec side and the reports that it replays fine', () => {
    const sourced = spec(CLAUDE_REJECTIONS, { 'blank-text': ['https://github.com/vercel/ai/issues/6255'] });
    const [finding] = judged([user(), assistant(thinking('why'), { text: '' }, { text: 'answer' })], sourced);
    expect(finding).toStrictEqual({
      rule: 'provider-accepts',
      rejection: 'blank-text',
      params: { index: 1, block: 1, path: 'messages.1.content.1.text' },
      detail: 'message 1 block 1 is blank text',
      contested: true,
      sources: [
        'https://github.com/vercel/ai/issues/6255',
        'https://github.com/vercel/ai/pull/14070',
        'https://github.com/vercel/ai/pull/14175',
      ],
    });
    // A spec whose blank-text rejection cites nothing still gets the other side's sources.
    expect(judged([user(), assistant(thinking('why'), { text: '' })])[0]!.sources).toStrictEqual([
      'https://github.com/vercel/ai/pull/14070',
      'https://github.com/vercel/ai/pull/14175',
    ]);
    // Not disputed for a model without Claude's blocks-modified rule, nor in a message without reasoning.
    expect(judged([user(), assistant(unsignedThinking('why'), { text: '' })], oss)[0]!.contested).toBeUndefined();
    expect(
      judged([user(), assistant({ text: '' }), user('b'), assistant(thinking('why'))])[0]!.contested,
    ).toBeUndefined();
  });

  it('reads nothing from a body without a message list, and skips messages and blocks that are not objects', () => {
    expect(judgeBedrockConverse(claude, null)).toStrictEqual([]);
    expect(judgeBedrockConverse(claude, { messages: 'no' })).toStrictEqual([]);
    expect(
      judged([user(), null, 'text', assistant('junk', thinking('why'), toolUse()), results()], claude, THINKING_ON),
    ).toStrictEqual([]);
  });
});

describe('judgeBedrockConverse: Claude reasoning blocks', () => {
  it('a faithful replay is accepted, signed thinking and redacted data alike', () => {
    expect(
      judged(
        [user(), assistant(thinking('a'), { text: 'x' }), user('b'), assistant(redacted('r'), toolUse()), results()],
        claude,
        THINKING_ON,
      ),
    ).toStrictEqual([]);
  });

  it('names a missing, empty or non-string signature as missing, at the block and its path', () => {
    for (const block of [unsignedThinking('a'), thinking('a', 0, ''), thinking('a', 0, 42)]) {
      expect(judged([user(), assistant({ text: 'lead' }, block), user('b')])).toStrictEqual([
        {
          rule: 'signatures-verbatim',
          rejection: 'missing-signature',
          params: { index: 1, block: 1, role: 'assistant', path: 'messages.1.content.1.reasoningContent' },
          detail: 'assistant message 1 block 1 (reasoning block #0): missing-signature',
        },
      ]);
    }
  });

  it('tells an edited block in the latest assistant message ("cannot be modified") from one in an earlier message (invalid)', () => {
    const edited = thinking('edited text', 0, mockSignThinking('original text', 0));
    expect(
      verdicts([
        user(),
        assistant(edited, { text: 'x' }),
        user('b'),
        assistant(thinking('fine'), { text: 'y' }),
        user('c'),
      ]),
    ).toStrictEqual([['invalid-signature', 1, 0]]);
    expect(
      verdicts([
        user(),
        assistant(thinking('fine'), { text: 'x' }),
        user('b'),
        assistant(edited, { text: 'y' }),
        user('c'),
      ]),
    ).toStrictEqual([['blocks-modified', 3, 0]]);
    // The latest assistant message is the last one with that role, wherever users stand after it.
    expect(verdicts([user(), assistant(edited, toolUse()), results(), user('c')])).toStrictEqual([
      ['blocks-modified', 1, 0],
    ]);
  });

  it('judges redacted data, and leaves a reasoningContent with neither text nor data to the schema', () => {
    const forged = { reasoningContent: { redactedContent: 'Zm9yZ2Vk' } };
    expect(verdicts([user(), assistant(forged, { text: 'x' }), user('b')])).toStrictEqual([['invalid-redacted', 1, 0]]);
    expect(judged([user(), assistant({ reasoningContent: {} }, { text: 'x' }), user('b')])).toStrictEqual([]);
    expect(judged([user(), assistant({ reasoningContent: 'flat' }, { text: 'x' }), user('b')])).toStrictEqual([]);
  });

  it('names where a dropped sibling stood, after the last block kept', () => {
    const kept = thinking('Visible part.', 0, mockSignThinking('Visible part.', 0, undefined, { blocks: 2 }));
    expect(judged([user(), assistant(kept, toolUse()), results()])).toStrictEqual([
      {
        rule: 'signatures-verbatim',
        rejection: 'blocks-modified',
        params: { index: 1, block: 1, role: 'assistant', path: 'messages.1.content.1.reasoningContent' },
        detail: 'assistant message 1 1 reasoning block(s) dropped after block 0 (reasoning block #1): blocks-modified',
      },
    ]);
  });

  it('answers only with the rejections the spec defines', () => {
    const edited = thinking('edited text', 0, mockSignThinking('original text', 0));
    // Latest assistant message: blocks-modified, which this spec does not define; earlier: invalid-signature, likewise.
    expect(judged([user(), assistant(edited, { text: 'x' }), user('b')], spec(['invalid-signature']))).toStrictEqual(
      [],
    );
    expect(
      judged(
        [user(), assistant(edited, { text: 'x' }), user('b'), assistant({ text: 'y' })],
        spec(['blocks-modified']),
      ),
    ).toStrictEqual([]);
    expect(
      verdicts(
        [user(), assistant(edited, { text: 'x' }), user('b'), assistant({ text: 'y' })],
        spec(['invalid-signature']),
      ),
    ).toStrictEqual([['invalid-signature', 1, 0]]);
    expect(
      judged([user(), assistant(unsignedThinking('a'), { text: 'x' }), user('b')], spec(['invalid-signature'])),
    ).toStrictEqual([]);
  });

  it('never asks for a thinking key Converse cannot omit (a reasoningText is the thinking block)', () => {
    expect(
      judged([
        user(),
        assistant({ reasoningContent: { reasoningText: { signature: mockSignThinking('', 0) } } }, { text: 'x' }),
        user('b'),
      ]),
    ).toStrictEqual([]);
  });
});

describe('judgeBedrockConverse: models that refuse reasoning or signatures', () => {
  it('refuses replayed reasoning before the last user message only, naming the block and the model', () => {
    expect(judged([user(), assistant({ text: 'x' }, unsignedThinking('a')), user('b')], r1)).toStrictEqual([
      {
        rule: 'fields-sent',
        rejection: 'reasoning-not-accepted',
        params: { index: 1, block: 1, role: 'assistant', path: 'messages.1.content.1.reasoningContent' },
        detail:
          'assistant message 1 (before the last user message) carries reasoningContent, which deepseek.r1-test refuses',
      },
    ]);
    expect(judged([user(), assistant(unsignedThinking('a'), toolUse())], r1)).toStrictEqual([]);
    // Tool results are not a user message: reasoning inside the loop they answer is not refused.
    expect(judged([user(), assistant(unsignedThinking('a'), toolUse()), results()], r1)).toStrictEqual([]);
    // An assistant message after the loop is no user message either.
    expect(
      judged([user(), assistant(unsignedThinking('a'), toolUse()), results(), assistant({ text: 'done' })], r1),
    ).toStrictEqual([]);
    // With no user message at all (a loop replayed from its start), nothing lies before the split.
    expect(judged([assistant(unsignedThinking('a'), toolUse()), results()], r1)).toStrictEqual([]);
    // A user message with no content blocks does not split the turns either.
    expect(
      verdicts([user(), assistant(unsignedThinking('a'), toolUse()), { role: 'user', content: [] }], r1),
    ).toStrictEqual([['empty-content', 2, undefined]]);
  });

  it('refuses a signature field on a model that takes none, even an empty one, naming the model', () => {
    expect(judged([user(), assistant(thinking('a', 0, ''), { text: 'x' })], oss)).toStrictEqual([
      {
        rule: 'fields-sent',
        rejection: 'signature-not-supported',
        params: { index: 1, block: 0, role: 'assistant', path: 'messages.1.content.0.reasoningContent' },
        detail: 'assistant message 1 block 0 carries reasoningText.signature, which openai.gpt-oss-test does not take',
      },
    ]);
    expect(judged([user(), assistant(unsignedThinking('a'), { text: 'x' })], oss)).toStrictEqual([]);
    expect(judged([user(), assistant(redacted('r'), { text: 'x' })], oss)).toStrictEqual([]);
  });

  it('judges reasoning only in assistant messages', () => {
    expect(
      judged(
        [{ role: 'user', content: [thinking('a', 0, 'forged')] }, user('b')],
        spec([...CLAUDE_REJECTIONS, 'reasoning-not-accepted']),
      ),
    ).toStrictEqual([]);
  });
});

describe('judgeBedrockConverse: the current tool loop opens with reasoning', () => {
  const loop = (...opener: unknown[]) => [user(), assistant(...opener), results()];

  it.each([
    ['text', [{ text: 'Let me look.' }, toolUse()]],
    ['tool_use', [toolUse()]],
    ['image', [{ image: { format: 'png' } }, toolUse()]],
    ['nothing', [{}, toolUse()]],
  ])('names the kind it found first (%s), at block 0 of the opener', (found, opener) => {
    expect(judged(loop(...opener), claude, THINKING_ON)).toStrictEqual([
      {
        rule: 'signatures-verbatim',
        rejection: 'thinking-expected',
        params: { index: 1, block: 0, found, role: 'assistant', path: 'messages.1.content.0' },
        detail: `assistant message 1 opens the current tool loop with ${found}, not reasoningContent`,
      },
    ]);
  });

  it('says "no block" for an opener with no content', () => {
    const [, finding] = judged(loop(), claude, THINKING_ON);
    expect(finding).toMatchObject({
      rejection: 'thinking-expected',
      params: { found: 'nothing' },
      detail: 'assistant message 1 opens the current tool loop with no block, not reasoningContent',
    });
  });

  it('accepts an opener that starts with signed or redacted reasoning', () => {
    expect(judged(loop(thinking('why'), toolUse()), claude, THINKING_ON)).toStrictEqual([]);
    expect(judged(loop(redacted('r'), toolUse()), claude, THINKING_ON)).toStrictEqual([]);
  });

  it('asks only when thinking is enabled or adaptive, outside a loop never, and only where the spec defines it', () => {
    const opener = [{ text: 'Let me look.' }, toolUse()];
    expect(
      judged(loop(...opener), claude, { additionalModelRequestFields: { thinking: { type: 'adaptive' } } }),
    ).toHaveLength(1);
    for (const extra of [
      {},
      { additionalModelRequestFields: 'x' },
      { additionalModelRequestFields: { thinking: 'on' } },
      { additionalModelRequestFields: { thinking: { type: 'disabled' } } },
    ]) {
      expect(judged(loop(...opener), claude, extra)).toStrictEqual([]);
    }
    expect(judged([user(), assistant(...opener)], claude, THINKING_ON)).toStrictEqual([]);
    expect(
      judged(loop(...opener), spec(CLAUDE_REJECTIONS.filter((r) => r !== 'thinking-expected')), THINKING_ON),
    ).toStrictEqual([]);
  });

  it('reads a message of tool results as part of the loop, whatever else the blocks hold', () => {
    const messages = [
      user(),
      assistant(thinking('why'), toolUse('t1')),
      results('t1'),
      assistant({ text: 'and then' }, toolUse('t2')),
      results('t2'),
    ];
    expect(judged(messages, claude, THINKING_ON)).toStrictEqual([]);
  });
});
