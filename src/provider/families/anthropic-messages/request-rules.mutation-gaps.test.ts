import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../../shared/findings/finding.js';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import { judgeAnthropicMessages } from './request-rules.js';

/**
 * judgeAnthropicMessages driven with hand-made requests and a hand-made spec whose `rejections`
 * name every rule (or none), so each rule, its gate on the spec, and what its finding names (rule,
 * message index, block, path) are seen on their own, never through today's provider spec files
 * (decision 0029: this module had not been measured before).
 */
const RULES = [
  'text-empty',
  'text-whitespace',
  'thinking-field-required',
  'missing-signature',
  'invalid-signature',
  'blocks-modified',
  'invalid-redacted',
  'max-tokens-not-above-budget',
  'thinking-not-first',
  'thinking-when-disabled',
  'final-block-thinking',
  'thinking-expected',
];
const specWith = (rules: readonly string[]) =>
  ({ rejections: Object.fromEntries(rules.map((r) => [r, { status: 400, body: {} }])) }) as unknown as ProviderSpec;
const ALL = specWith(RULES);
const NONE = specWith([]);

const on = { type: 'enabled', budget_tokens: 1024 };
const signed = (text: string, ordinal = 0) => ({
  type: 'thinking',
  thinking: text,
  signature: mockSignThinking(text, ordinal),
});
const user = (content: unknown = 'q') => ({ role: 'user', content });
const results = (id = 't1') => user([{ type: 'tool_result', tool_use_id: id, content: 'x' }]);
const call = (id = 't1') => ({ type: 'tool_use', id, name: 'ls', input: {} });
const text = (t: string) => ({ type: 'text', text: t });
const assistant = (...content: unknown[]) => ({ role: 'assistant', content });

const judge = (body: unknown, spec: ProviderSpec = ALL) => judgeAnthropicMessages(spec, body);
const brief = (findings: Finding[]) => findings.map((f) => [f.rejection, f.params.path]);

describe('judgeAnthropicMessages: what it reads', () => {
  it('judges nothing in a body that is not an object with a messages list', () => {
    expect(judge(null)).toEqual([]);
    expect(judge({ messages: 'hi' })).toEqual([]);
  });

  it('runs no rule the spec does not define', () => {
    const bad = {
      max_tokens: 10,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        user(''),
        assistant(text(' '), { type: 'thinking', thinking: 'x', signature: 'forged' }, call()),
        results(),
      ],
    };
    expect(judge(bad, NONE)).toEqual([]);
    expect(judge(bad).length).toBeGreaterThan(0);
  });

  it('skips messages that are not objects and blocks that are not objects', () => {
    expect(
      judge({
        thinking: on,
        max_tokens: 4096,
        messages: ['stray', user(), assistant('junk', signed('ok'), text('a')), user('more')],
      }),
    ).toEqual([]);
  });
});

describe('judgeAnthropicMessages: only assistant messages carry replayed reasoning', () => {
  const forged = { type: 'thinking', thinking: 'x', signature: 'forged' };

  it('reads no signature or prefill rule into a user message, nor into a null one', () => {
    expect(
      judge({ messages: [user([text('q'), forged]), null, assistant(text('a')), user([text('again'), forged])] }),
    ).toEqual([]);
    expect(judge({ messages: [user(), assistant(signed('t'), text('a')), null] })).toEqual([]);
  });

  it('names "nothing" for a loop opener that has no content at all', () => {
    const [finding] = judge(
      { thinking: on, messages: [user(), { role: 'assistant' }, results()] },
      specWith(['thinking-expected']),
    );
    expect(finding?.params.found).toBe('nothing');
  });
});

describe('judgeAnthropicMessages: text blocks', () => {
  it('names the first empty text block, then the first whitespace-only one, by message and block', () => {
    const findings = judge({
      messages: [user([text('q'), text('\n ')]), assistant(text('a'), text('')), user(''), assistant(text(' '))],
    });
    expect(findings).toEqual([
      {
        rule: 'provider-accepts',
        rejection: 'text-empty',
        params: { index: 1, block: 1, path: 'messages.1.content.1.text' },
        detail: 'message 1 block 1 is empty',
      },
      {
        rule: 'provider-accepts',
        rejection: 'text-whitespace',
        params: { index: 0, block: 1, path: 'messages.0.content.1.text' },
        detail: 'message 0 block 1 is only whitespace',
      },
    ]);
  });

  it('reads string content as one text block, and ignores a text block whose text is not a string', () => {
    expect(brief(judge({ messages: [user({ type: 'text' }), user([{ type: 'text', text: 5 }]), user('  ')] }))).toEqual(
      [['text-whitespace', 'messages.2.content.0.text']],
    );
  });

  it('reads only text blocks for the text rules', () => {
    expect(
      judge({
        messages: [
          user([
            { type: 'image', text: '' },
            { type: 'document', text: ' ' },
          ]),
        ],
      }),
    ).toEqual([]);
  });

  it('each text rule is gated on its own rejection', () => {
    const body = { messages: [user(''), user(' ')] };
    expect(brief(judge(body, specWith(['text-whitespace'])))).toEqual([
      ['text-whitespace', 'messages.1.content.0.text'],
    ]);
    expect(brief(judge(body, specWith(['text-empty'])))).toEqual([['text-empty', 'messages.0.content.0.text']]);
  });
});

describe('judgeAnthropicMessages: signed reasoning blocks', () => {
  it('an edited block is "cannot be modified" in the latest assistant message, an invalid signature earlier', () => {
    const edited = { ...signed('plan'), thinking: 'plan!' };
    const findings = judge({
      messages: [user(), assistant(edited, text('a')), user(), assistant(edited, text('b')), user()],
    });
    expect(findings).toEqual([
      {
        rule: 'signatures-verbatim',
        rejection: 'invalid-signature',
        params: { index: 1, block: 0, role: 'assistant', path: 'messages.1.content.0', field: 'thinking' },
        detail: 'thinking block 0 of message 1 (reasoning block #0): invalid-signature',
      },
      {
        rule: 'signatures-verbatim',
        rejection: 'blocks-modified',
        params: { index: 3, block: 0, role: 'assistant', path: 'messages.3.content.0', field: 'thinking' },
        detail: 'thinking block 0 of message 3 (reasoning block #0): blocks-modified',
      },
    ]);
  });

  it('the latest assistant message is the last one with that role, even with non-objects after it', () => {
    const edited = { ...signed('plan'), thinking: 'plan!' };
    expect(
      brief(judge({ messages: [user(), assistant(edited, text('a')), user(), 'stray', { role: 'user' }] })),
    ).toEqual([['blocks-modified', 'messages.1.content.0']]);
  });

  it('a block without its thinking key is a schema error; one without a signature names the signature field', () => {
    const findings = judge({
      messages: [
        user(),
        assistant({ type: 'thinking', signature: 's' }, text('a')),
        user(),
        assistant({ type: 'thinking', thinking: 't' }, text('b')),
        user(),
      ],
    });
    expect(findings.map((f) => [f.rule, f.rejection, f.params.field, f.params.index])).toEqual([
      ['provider-accepts', 'thinking-field-required', 'thinking', 1],
      ['signatures-verbatim', 'missing-signature', 'signature', 3],
    ]);
  });

  it('reads redacted blocks by their data, and counts ordinals over both kinds, skipping other blocks', () => {
    const ok = {
      messages: [
        user(),
        assistant(signed('a', 0), { type: 'redacted_thinking', data: mockRedactedData('r', 1) }, text('x')),
        user(),
      ],
    };
    expect(judge(ok)).toEqual([]);
    const swapped = {
      messages: [
        user(),
        assistant({ type: 'redacted_thinking', data: mockRedactedData('r', 1) }, signed('a', 0), text('x')),
        user(),
      ],
    };
    expect(judge(swapped).map((f) => [f.rejection, f.params.block, f.detail])).toEqual([
      ['blocks-modified', 0, 'redacted_thinking block 0 of message 1 (reasoning block #0): blocks-modified'],
      ['blocks-modified', 1, 'thinking block 1 of message 1 (reasoning block #1): blocks-modified'],
    ]);
  });

  it('names a sibling dropped after the blocks left by where it stood and how many', () => {
    const place = { blocks: 2, at: 0 };
    const first = { type: 'thinking', thinking: 'a', signature: mockSignThinking('a', 0, undefined, place) };
    const [finding] = judge({ messages: [user(), assistant(first, text('x')), user()] });
    expect(finding).toEqual({
      rule: 'signatures-verbatim',
      rejection: 'blocks-modified',
      params: { index: 1, block: 1, role: 'assistant', path: 'messages.1.content.1', field: 'thinking' },
      detail: '1 reasoning block(s) dropped after block 0 of message 1 (reasoning block #1): blocks-modified',
    });
  });

  it('answers only the verdicts the spec defines', () => {
    const edited = { ...signed('plan'), thinking: 'plan!' };
    const body = { messages: [user(), assistant(edited, text('a')), user(), assistant(edited, text('b')), user()] };
    expect(brief(judge(body, specWith(['blocks-modified'])))).toEqual([['blocks-modified', 'messages.3.content.0']]);
  });
});

describe('judgeAnthropicMessages: thinking budget', () => {
  const budget = (thinking: unknown, max_tokens: unknown) => brief(judge({ thinking, max_tokens, messages: [user()] }));

  it('refuses a budget equal to or above max_tokens, with both numbers', () => {
    const findings = judge({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 2048,
      messages: [user()],
    });
    expect(findings).toEqual([
      {
        rule: 'provider-accepts',
        rejection: 'max-tokens-not-above-budget',
        params: { path: 'thinking.budget_tokens' },
        detail: 'thinking.budget_tokens 2048 is not below max_tokens 2048',
      },
    ]);
    expect(budget({ type: 'adaptive', budget_tokens: 4096 }, 1024)).toEqual([
      ['max-tokens-not-above-budget', 'thinking.budget_tokens'],
    ]);
  });

  it('accepts a budget below max_tokens, thinking off, and budgets or max_tokens that are not numbers', () => {
    expect(budget({ type: 'enabled', budget_tokens: 2047 }, 2048)).toEqual([]);
    expect(budget({ type: 'disabled', budget_tokens: 4096 }, 1024)).toEqual([]);
    expect(budget({ type: 'enabled', budget_tokens: '4096' }, 1024)).toEqual([]);
    expect(budget({ type: 'enabled', budget_tokens: 4096 }, '1024')).toEqual([]);
    expect(budget('enabled', 1024)).toEqual([]);
    expect(budget(null, 1024)).toEqual([]);
  });
});

describe('judgeAnthropicMessages: where thinking stands in a message', () => {
  it('refuses reasoning after another block, naming what came first', () => {
    const [finding] = judge({
      thinking: on,
      max_tokens: 4096,
      messages: [
        user(),
        assistant(text('a'), { type: 'redacted_thinking', data: mockRedactedData('r', 0) }),
        user('again'),
      ],
    });
    expect(finding).toEqual({
      rule: 'signatures-verbatim',
      rejection: 'thinking-not-first',
      params: { index: 1, block: 0, found: 'text', role: 'assistant', path: 'messages.1.content.0' },
      detail: 'assistant message 1 holds thinking after a text block',
    });
  });

  it('is silent on an assistant message without reasoning, or a user message holding a thinking-typed block', () => {
    expect(
      judge(
        { messages: [user([text('a'), { type: 'thinking', thinking: 't' }]), assistant(text('a'), call()), results()] },
        specWith(['thinking-not-first']),
      ),
    ).toEqual([]);
  });

  it('a final assistant message with thinking while thinking is off names the first reasoning block', () => {
    const [finding] = judge(
      { max_tokens: 64, messages: [user(), assistant(text('a'), text('b'))] },
      specWith(['thinking-when-disabled']),
    );
    expect(finding).toBeUndefined();
    const findings = judge(
      { max_tokens: 64, messages: [user(), assistant(signed('t'), text('b'))] },
      specWith(['thinking-when-disabled', 'final-block-thinking']),
    );
    expect(findings).toEqual([
      {
        rule: 'provider-accepts',
        rejection: 'thinking-when-disabled',
        params: { index: 1, block: 0, role: 'assistant', path: 'messages.1.content.0' },
        detail: 'thinking is off and the final assistant message 1 carries thinking',
      },
    ]);
    const later = judge(
      { thinking: { type: 'disabled' }, messages: [user(), assistant(text('a'), signed('t'), text('b'))] },
      specWith(['thinking-when-disabled']),
    );
    expect(later.map((f) => f.params.path)).toEqual(['messages.1.content.1']);
  });

  it('a prefill ending in a reasoning block is refused when thinking is on, or when the spec has no thinking-off rule', () => {
    const ends = (thinking: unknown) => ({
      thinking,
      max_tokens: 4096,
      messages: [user(), assistant(signed('t'), { type: 'redacted_thinking', data: mockRedactedData('r', 1) })],
    });
    const expected = [
      {
        rule: 'provider-accepts',
        rejection: 'final-block-thinking',
        params: { index: 1, role: 'assistant', path: 'messages.1' },
        detail: 'the final assistant message 1 ends with a thinking block',
      },
    ];
    expect(judge(ends(on), specWith(['final-block-thinking', 'thinking-when-disabled']))).toEqual(expected);
    expect(judge(ends(undefined), specWith(['final-block-thinking']))).toEqual(expected);
  });

  it('a prefill ending in text, or empty, or a request ending in a user message, is not a thinking prefill', () => {
    const spec = specWith(['final-block-thinking', 'thinking-when-disabled']);
    expect(judge({ thinking: on, messages: [user(), assistant(signed('t'), text('a'))] }, spec)).toEqual([]);
    expect(judge({ thinking: on, messages: [user(), { role: 'assistant', content: [] }] }, spec)).toEqual([]);
    expect(judge({ messages: [user(), { role: 'assistant', content: 'prefill' }] }, spec)).toEqual([]);
    expect(judge({ messages: [user(), assistant(signed('t'), text('a')), user('ok')] }, spec)).toEqual([]);
    expect(judge({ messages: [user(), assistant(signed('t')), 'stray'] }, spec)).toEqual([]);
  });
});

describe('judgeAnthropicMessages: the current tool loop must open with thinking', () => {
  it('names the opener’s first block, or "nothing" when it has none', () => {
    const spec = specWith(['thinking-expected']);
    const [finding] = judge({ thinking: on, messages: [user(), assistant(text('a'), call()), results()] }, spec);
    expect(finding).toEqual({
      rule: 'signatures-verbatim',
      rejection: 'thinking-expected',
      params: { index: 1, block: 0, found: 'text', role: 'assistant', path: 'messages.1.content.0.type' },
      detail: 'assistant message 1 opens the current tool loop with text, not thinking',
    });
    const [empty] = judge(
      { thinking: { type: 'adaptive' }, messages: [user(), { role: 'assistant', content: [] }, results()] },
      spec,
    );
    expect(empty?.params.found).toBe('nothing');
    expect(empty?.detail).toBe('assistant message 1 opens the current tool loop with no block, not thinking');
  });

  it('accepts an opener that starts with redacted thinking, and asks nothing when thinking is off or no loop is open', () => {
    const spec = specWith(['thinking-expected']);
    expect(
      judge(
        {
          thinking: on,
          messages: [
            user(),
            assistant({ type: 'redacted_thinking', data: mockRedactedData('r', 0) }, call()),
            results(),
          ],
        },
        spec,
      ),
    ).toEqual([]);
    expect(judge({ thinking: { type: 'disabled' }, messages: [user(), assistant(call()), results()] }, spec)).toEqual(
      [],
    );
    expect(judge({ messages: [user(), assistant(call()), results()] }, spec)).toEqual([]);
    expect(
      judge(
        { thinking: on, messages: [user(), assistant(call()), results(), assistant(text('done')), user('thanks')] },
        spec,
      ),
    ).toEqual([]);
  });

  it('reads a loop whose messages are not objects as role-less, block-less messages', () => {
    const spec = specWith(['thinking-expected']);
    expect(brief(judge({ thinking: on, messages: [user(), 'stray', assistant(call()), results()] }, spec))).toEqual([
      ['thinking-expected', 'messages.2.content.0.type'],
    ]);
  });
});
