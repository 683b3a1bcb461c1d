import { describe, expect, it } from 'vitest';
import type { EchoRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { atPointer, echoRuleFindings, judgeMessageEchoes } from './message-echo-judge.js';

/**
 * Echo rules (DeepSeek, Kimi, MiMo: "reasoning_content must be passed back") are spec data; the
 * family tests reach them through the bundled specs only, which left the rule options (turns,
 * allowEmpty, aliases, unlessBody, contested sides) and the finding's numbering loose under Stryker.
 */

const rule = (extra: Partial<EchoRule> = {}): EchoRule => ({
  field: 'reasoning_content',
  turns: 'tool-call-turns',
  level: 'required',
  rejection: 'missing-echo',
  ...extra,
});
const call = [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }];

/**
 * user, assistant (tool call, no echo), tool, user, assistant (plain answer, no echo), assistant (tool call, echoed).
 */
const messages = [
  { role: 'user', content: 'q1' },
  { role: 'assistant', content: null, tool_calls: call },
  { role: 'tool', tool_call_id: 'c1', content: 'r' },
  { role: 'user', content: 'q2' },
  { role: 'assistant', content: 'a' },
  { role: 'assistant', content: null, tool_calls: call, reasoning_content: 'why' },
];
const body = { model: 'm', messages };
const flagged = (r: EchoRule, list: unknown[] = messages) =>
  echoRuleFindings(r, { messages: list }, list).map((f) => f.params.index);

describe('atPointer', () => {
  it('walks objects and arrays, unescaping ~1 and ~0', () => {
    const doc = { 'a/b': { 'c~d': [10, { e: 'x' }] } };
    expect(atPointer(doc, '/a~1b/c~0d/1/e')).toBe('x');
    expect(atPointer(doc, '/a~1b/c~0d/0')).toBe(10);
    expect(atPointer(doc, '')).toBe(doc);
    expect(atPointer(doc, '/a~1b/c~0d/0/deeper')).toBeUndefined();
    expect(atPointer(doc, '/missing/x')).toBeUndefined();
  });
});

describe('echoRuleFindings', () => {
  it('asks only required rules that name a rejection', () => {
    expect(flagged(rule({ level: 'recommended' }))).toStrictEqual([]);
    expect(flagged(rule({ rejection: undefined }))).toStrictEqual([]);
    expect(flagged(rule())).toStrictEqual([1]);
  });

  it('reads turns: tool-call turns, every assistant turn, or the current turn’s plain answers', () => {
    expect(flagged(rule({ turns: 'assistant-turns' }))).toStrictEqual([1, 4]);
    expect(flagged(rule({ turns: 'current-turn' }))).toStrictEqual([4]);
    // An empty tool_calls list is not a tool-call turn.
    expect(
      flagged(rule(), [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', tool_calls: [] },
      ]),
    ).toStrictEqual([]);
    // Before any user message every assistant answer is current; junk entries are skipped, not read as users.
    expect(flagged(rule({ turns: 'current-turn' }), [null, { role: 'assistant', content: 'a' }])).toStrictEqual([1]);
  });

  it('judges as current only the plain answers after the last user message', () => {
    const list = [
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'earlier answer' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'current answer' },
    ];
    expect(flagged(rule({ turns: 'current-turn' }), list)).toStrictEqual([3]);
    expect(flagged(rule({ turns: 'current-turn' }), [{ role: 'assistant', content: 'opening answer' }])).toStrictEqual([
      0,
    ]);
  });

  it('skips the rule when an unlessBody condition holds', () => {
    const r = rule({ unlessBody: [{ pointer: '/thinking/type', equals: 'disabled' }] });
    expect(echoRuleFindings(r, { ...body, thinking: { type: 'disabled' } }, messages)).toStrictEqual([]);
    expect(echoRuleFindings(r, { ...body, thinking: { type: 'enabled' } }, messages)).toHaveLength(1);
    const two = rule({
      unlessBody: [
        { pointer: '/x', equals: 1 },
        { pointer: '/thinking/type', equals: 'disabled' },
      ],
    });
    expect(echoRuleFindings(two, { ...body, thinking: { type: 'disabled' } }, messages)).toStrictEqual([]);
  });

  it('counts an empty string as missing unless the rule allows it, and says so', () => {
    const list = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: call, reasoning_content: '' },
    ];
    const [finding] = echoRuleFindings(rule(), { messages: list }, list);
    expect(finding!.detail).toBe('assistant message 1 (tool call) has no reasoning_content (empty string)');
    expect(echoRuleFindings(rule({ allowEmpty: true }), { messages: list }, list)).toStrictEqual([]);
  });

  it('is satisfied by an alias holding readable reasoning, not by an empty or opaque one', () => {
    const withAlias = (value: unknown) => {
      const list = [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: call, reasoning_details: value },
      ];
      return echoRuleFindings(rule({ aliases: ['reasoning_details'] }), { messages: list }, list).length;
    };
    expect(withAlias([{ type: 'reasoning.text', text: 't' }])).toBe(0);
    expect(
      withAlias([
        { type: 'reasoning.encrypted', data: 'x' },
        { type: 'reasoning.summary', summary: 's' },
      ]),
    ).toBe(0);
    expect(withAlias('plain text')).toBe(0);
    expect(withAlias('')).toBe(1);
    expect(
      withAlias([
        { type: 'reasoning.text', text: '' },
        { type: 'reasoning.summary', summary: '' },
      ]),
    ).toBe(1);
    expect(withAlias([{ type: 'reasoning.encrypted', data: 'x' }])).toBe(1);
    expect(withAlias(['t', null])).toBe(1);
    expect(withAlias({ text: 't' })).toBe(1);
  });

  it('numbers the finding as the provider does and keeps the chat index in the detail', () => {
    const [finding] = echoRuleFindings(rule(), { messages }, messages, (i) => i + 10);
    expect(finding).toStrictEqual({
      rule: 'must-echo',
      rejection: 'missing-echo',
      params: { index: 11, field: 'reasoning_content', role: 'assistant', path: 'messages.11.reasoning_content' },
      detail: 'assistant message 1 (tool call) has no reasoning_content',
    });
    const [current] = echoRuleFindings(rule({ turns: 'current-turn' }), { messages }, messages);
    expect(current!.detail).toBe('assistant message 4 (current turn, no tool call) has no reasoning_content');
    const [plain] = echoRuleFindings(rule({ turns: 'assistant-turns' }), { messages }, messages).slice(1);
    expect(plain!.detail).toBe('assistant message 4 has no reasoning_content');
  });

  it('marks a contested rule with both sides, and an empty-string finding by emptyContested only', () => {
    const contested = { notes: 'n', sources: ['https://example.com/other-side'] };
    const [withSource] = echoRuleFindings(
      rule({ contested, source: 'https://example.com/docs' }),
      { messages },
      messages,
    );
    expect(withSource).toMatchObject({
      contested: true,
      sources: ['https://example.com/docs', 'https://example.com/other-side'],
    });
    const [withoutSource] = echoRuleFindings(rule({ contested }), { messages }, messages);
    expect(withoutSource!.sources).toStrictEqual(['https://example.com/other-side']);
    const list = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: call, reasoning_content: '' },
      { role: 'assistant', content: null, tool_calls: call },
    ];
    const findings = echoRuleFindings(rule({ emptyContested: contested }), { messages: list }, list);
    expect(findings.map((f) => f.contested)).toStrictEqual([true, undefined]);
  });
});

describe('judgeMessageEchoes', () => {
  const spec = (echo: EchoRule[]) => ({ echo }) as unknown as ProviderSpec;

  it('judges only a body with a messages list', () => {
    expect(judgeMessageEchoes(spec([rule()]), 'text')).toStrictEqual([]);
    expect(judgeMessageEchoes(spec([rule()]), { input: messages })).toStrictEqual([]);
    expect(judgeMessageEchoes(spec([rule()]), body)).toHaveLength(1);
  });

  it('puts contested findings after undisputed ones', () => {
    const contested = rule({ field: 'reasoning', contested: { notes: 'n', sources: ['https://example.com/s'] } });
    const findings = judgeMessageEchoes(spec([contested, rule()]), body);
    expect(findings.map((f) => [f.params.field, f.contested ?? false])).toStrictEqual([
      ['reasoning_content', false],
      ['reasoning', true],
      ['reasoning', true],
    ]);
  });
});
