import { describe, expect, it } from 'vitest';
import type { MessageRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { judgeMessageRules } from './message-rules-judge.js';

/**
 * The per-message rules are spec data (Zhipu's empty assistant message, DashScope's JSON arguments
 * and orphan tool results, Hunyuan's alternation); the family tests reach each kind through one
 * bundled spec. These cases drive judgeMessageRules with hand-made rules and pin what a client is
 * told: the rejection, the index, role, field and path, and the sentence the finding carries.
 */

const spec = (messageRules: MessageRule[] | undefined, sources = ['https://example.com/own']): ProviderSpec =>
  ({ messageRules, rejections: { no: { status: 400, sources } } }) as unknown as ProviderSpec;
const judged = (rules: MessageRule[], body: unknown) => judgeMessageRules(spec(rules), body);
const rule = (extra: Partial<MessageRule>): MessageRule => ({ rejection: 'no', ...extra }) as MessageRule;

describe('judgeMessageRules: which list it walks', () => {
  const empty = rule({ fields: { empty: ['content'] } });

  it('judges nothing without rules, without a body object, or without the list', () => {
    expect(judgeMessageRules(spec(undefined), { messages: [{ role: 'user' }] })).toStrictEqual([]);
    expect(judgeMessageRules(spec([]), { messages: [{ role: 'user' }] })).toStrictEqual([]);
    expect(judged([empty], [{ role: 'user' }])).toStrictEqual([]);
    expect(judged([empty], { messages: { 0: { role: 'user' } } })).toStrictEqual([]);
    expect(judged([empty], { input: [{ role: 'user' }] })).toStrictEqual([]);
  });

  it('walks messages by default and another top-level list when named, and says so', () => {
    expect(judged([empty], { messages: [{ role: 'user' }] })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { index: 0, role: 'user', field: 'content', path: 'messages.0' },
        detail: 'user message 0 has content empty',
      },
    ]);
    expect(
      judged([{ ...empty, list: 'tools', rule: 'strict-schema' }], {
        messages: [{ role: 'user' }],
        tools: [{ content: 'x' }, {}],
      }),
    ).toStrictEqual([
      {
        rule: 'strict-schema',
        rejection: 'no',
        params: { index: 1, role: '', field: 'content', path: 'tools.1' },
        detail: 'tools item 1 has content empty',
      },
    ]);
  });

  it('gives findings rule by rule, each in item order', () => {
    const rules = [rule({ fields: { empty: ['b'] } }), rule({ fields: { empty: ['a'] } })];
    expect(
      judged(rules, { messages: [{ role: 'user' }, { role: 'user' }] }).map(
        (f) => `${String(f.params.field)}${String(f.params.index)}`,
      ),
    ).toStrictEqual(['b0', 'b1', 'a0', 'a1']);
  });
});

describe('fields rules', () => {
  it('takes absent, null, "" and [] as empty, and anything else as present', () => {
    const r = [rule({ fields: { empty: ['content'] } })];
    for (const content of [undefined, null, '', []])
      expect(judged(r, { messages: [{ role: 'user', content }] }), JSON.stringify(content)).toHaveLength(1);
    for (const content of [0, false, ' ', [''], {}])
      expect(judged(r, { messages: [{ role: 'user', content }] }), JSON.stringify(content)).toStrictEqual([]);
  });

  it('holds only when every listed field is empty, or every listed field present', () => {
    const both = [rule({ fields: { empty: ['content', 'tool_calls'] } })];
    expect(judged(both, { messages: [{ role: 'assistant', content: '', tool_calls: [{}] }] })).toStrictEqual([]);
    expect(judged(both, { messages: [{ role: 'assistant', content: 'x' }] })).toStrictEqual([]);
    const together = [rule({ fields: { nonEmpty: ['content', 'reasoning'] } })];
    expect(judged(together, { messages: [{ role: 'assistant', content: 'x' }] })).toStrictEqual([]);
    expect(judged(together, { messages: [{ role: 'assistant', reasoning: 'y' }] })).toStrictEqual([]);
    expect(judged(together, { messages: [{ role: 'assistant', content: 'x', reasoning: 'y' }] })[0]?.params.field).toBe(
      'content',
    );
  });

  it('words what it found: one field, both, all, and fields together', () => {
    const said = (fields: MessageRule['fields'], message: Record<string, unknown>) =>
      judged([rule({ fields })], { messages: [message] })[0]?.detail;
    expect(said({ empty: ['content', 'tool_calls'] }, { role: 'assistant' })).toBe(
      'assistant message 0 has content and tool_calls both empty',
    );
    expect(said({ empty: ['a', 'b', 'c'] }, { role: 'assistant' })).toBe(
      'assistant message 0 has a, b and c all empty',
    );
    expect(
      said(
        { nonEmpty: ['content', 'reasoning', 'tool_calls'] },
        { role: 'assistant', content: 'x', reasoning: 'y', tool_calls: [{}] },
      ),
    ).toBe('assistant message 0 has content, reasoning and tool_calls together');
    expect(said({ empty: ['content'], nonEmpty: ['tool_calls'] }, { role: 'assistant', tool_calls: [{}] })).toBe(
      'assistant message 0 has content empty, tool_calls together',
    );
    expect(said({ empty: ['content'] }, { content: '' })).toBe('a message 0 has content empty');
  });

  it('names the first empty field, else the first present one', () => {
    const field = (fields: MessageRule['fields']) =>
      judged([rule({ fields })], { messages: [{ role: 'user', x: 'x' }] })[0]?.params.field;
    expect(field({ empty: ['a', 'b'], nonEmpty: ['x'] })).toBe('a');
    expect(field({ nonEmpty: ['x'] })).toBe('x');
  });

  it('holds for the roles it names, on object items only, and names a role-less item with an empty role', () => {
    const r = [rule({ fields: { roles: ['assistant'], empty: ['content'] } })];
    expect(
      judged(r, { messages: [{ role: 'user' }, {}, { role: 7 }, null, 'assistant', { role: 'assistant' }] }).map(
        (f) => f.params.index,
      ),
    ).toStrictEqual([5]);
    expect(
      judged([rule({ fields: { empty: ['content'] } })], { messages: [null, 'x', { content: '' }] }),
    ).toMatchObject([{ params: { index: 2, role: '' } }]);
    expect(judged([rule({ fields: { empty: ['content'] } })], { messages: [{ role: 7 }] })).toMatchObject([
      { params: { index: 0, role: '' }, detail: 'a message 0 has content empty' },
    ]);
  });
});

describe('jsonString rules', () => {
  const args = (...values: unknown[]) => ({
    role: 'assistant',
    tool_calls: values.map((arguments_) => ({ function: { arguments: arguments_ } })),
  });

  it('names every string at the path that is not JSON, with its full path and key', () => {
    const r = [rule({ jsonString: { path: 'tool_calls.*.function.arguments' } })];
    expect(
      judged(r, { messages: [{ role: 'user', content: 'q' }, args('{}', 'city=Rome', 7, null, '[1]', '')] }),
    ).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { index: 1, role: 'assistant', field: 'arguments', path: 'messages.1.tool_calls.1.function.arguments' },
        detail: 'messages.1.tool_calls.1.function.arguments is not JSON',
      },
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { index: 1, role: 'assistant', field: 'arguments', path: 'messages.1.tool_calls.5.function.arguments' },
        detail: 'messages.1.tool_calls.5.function.arguments is not JSON',
      },
    ]);
  });

  it('walks the keys of an object, a fixed index and a fixed key, and nothing else', () => {
    const message = { role: 'assistant', meta: { a: 'x', b: '{}' }, list: ['y', '1'], deep: { s: 'z' }, scalar: 'w' };
    const paths = (path: string) =>
      judged([rule({ jsonString: { path } })], { messages: [message] }).map((f) => f.params.path);
    expect(paths('meta.*')).toStrictEqual(['messages.0.meta.a']);
    expect(paths('list.0')).toStrictEqual(['messages.0.list.0']);
    expect(paths('list.1')).toStrictEqual([]);
    expect(paths('list.x')).toStrictEqual([]);
    expect(paths('deep.s')).toStrictEqual(['messages.0.deep.s']);
    expect(paths('deep.t')).toStrictEqual([]);
    expect(paths('scalar.*')).toStrictEqual([]);
    expect(paths('meta.0')).toStrictEqual([]);
    expect(paths('scalar.0')).toStrictEqual([]);
  });

  it('judges strings only: arguments sent as an object are not this rule’s business', () => {
    const r = [rule({ jsonString: { path: 'tool_calls.*.function.arguments' } })];
    expect(judged(r, { messages: [args({ city: 'Rome' }, ['x'])] })).toStrictEqual([]);
  });

  it('holds for the roles it names, and names a role-less item with an empty role', () => {
    const r = [rule({ jsonString: { path: 'x', roles: ['assistant'] } })];
    expect(
      judged(r, {
        messages: [
          { role: 'user', x: 'no' },
          { role: 'assistant', x: 'no' },
        ],
      }).map((f) => f.params.index),
    ).toStrictEqual([1]);
    expect(judged([rule({ jsonString: { path: 'x' } })], { messages: [{ x: 'no' }] })[0]?.params.role).toBe('');
  });
});

describe('alternation rules', () => {
  const hunyuan = { skip: ['system'], ask: ['user', 'tool'], answer: ['assistant'], repeatable: ['tool'] };
  const roles = (alternation: MessageRule['alternation'], ...list: unknown[]) =>
    judged([rule({ alternation })], { messages: list.map((role) => ({ role })) });

  it('names the first message out of turn, saying what it follows', () => {
    expect(roles(hunyuan, 'system', 'user', 'assistant', 'user', 'user', 'assistant', 'assistant')).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { index: 4, role: 'user', before: 3, field: 'role', path: 'messages.4' },
        detail: 'user message 4 is out of turn: it follows user message 3',
      },
    ]);
  });

  it('lets only a repeatable role follow itself on its side', () => {
    expect(roles(hunyuan, 'user', 'assistant', 'tool', 'tool', 'assistant')).toStrictEqual([]);
    expect(roles(hunyuan, 'user', 'assistant', 'tool', 'user')[0]?.params.index).toBe(3);
    expect(roles(hunyuan, 'user', 'assistant', 'user', 'tool')[0]?.params.index).toBe(3);
  });

  it('skips roles it is told to skip, roles on neither side, and items without a role', () => {
    expect(roles(hunyuan, 'user', 'system', 'developer', undefined, 7, 'assistant')).toStrictEqual([]);
    expect(
      judged([rule({ alternation: hunyuan })], {
        messages: [{ role: 'user' }, null, 'assistant', { role: 'assistant' }],
      }),
    ).toStrictEqual([]);
    // A role on neither side does not stand between two questions.
    expect(roles(hunyuan, 'user', 'developer', 'user')).toMatchObject([
      { params: { index: 2 }, detail: 'user message 2 is out of turn: it follows user message 0' },
    ]);
    // A skipped role is skipped even when it sits on a side.
    expect(roles({ ...hunyuan, skip: ['tool'] }, 'user', 'assistant', 'tool', 'user')).toStrictEqual([]);
    expect(roles(hunyuan, 'user', 'assistant', 'tool', 'user')).toHaveLength(1);
  });

  it('wants the side it names first, and says which roles start a conversation', () => {
    expect(roles({ ...hunyuan, first: 'ask' }, 'system', 'assistant', 'user')).toMatchObject([
      {
        params: { index: 1, role: 'assistant' },
        detail: 'assistant message 1 is out of turn: the conversation must start with user/tool',
      },
    ]);
    expect(roles({ ...hunyuan, first: 'answer' }, 'user', 'assistant')).toMatchObject([
      { params: { index: 0 }, detail: 'user message 0 is out of turn: the conversation must start with assistant' },
    ]);
    expect(roles({ ...hunyuan, first: 'ask' }, 'user', 'assistant')).toStrictEqual([]);
    expect(roles({ ...hunyuan, answer: ['assistant', 'model'], first: 'answer' }, 'user')[0]?.detail).toBe(
      'user message 0 is out of turn: the conversation must start with assistant/model',
    );
    expect(roles(hunyuan, 'assistant', 'user')).toStrictEqual([]);
  });

  it('wants the side it names last, naming the last message', () => {
    expect(roles({ ...hunyuan, last: 'ask' }, 'user', 'assistant')).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { index: 1, role: 'assistant', field: 'role', path: 'messages.1' },
        detail: 'the conversation ends with assistant message 1, not with user/tool',
      },
    ]);
    expect(roles({ ...hunyuan, last: 'answer' }, 'user', 'assistant', 'tool', 'system')).toMatchObject([
      { params: { index: 2, role: 'tool' }, detail: 'the conversation ends with tool message 2, not with assistant' },
    ]);
    expect(roles({ ...hunyuan, last: 'ask' }, 'user', 'assistant', 'user')).toStrictEqual([]);
    expect(roles({ ...hunyuan, last: 'answer' }, 'user', 'assistant')).toStrictEqual([]);
    expect(roles({ ...hunyuan, last: 'ask' }, 'system')).toStrictEqual([]);
    expect(roles({ ...hunyuan, last: 'ask' }, 'user', 'user')).toMatchObject([
      { params: { index: 1 }, detail: 'user message 1 is out of turn: it follows user message 0' },
    ]);
  });
});

describe('contains rules', () => {
  it('refuses a list holding no item of the roles, naming the list', () => {
    const r = [rule({ contains: { roles: ['user', 'tool'] } })];
    expect(judged(r, { messages: [{ role: 'system' }, { role: 'assistant' }, null] })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { field: 'role', path: 'messages' },
        detail: 'messages holds no user/tool item',
      },
    ]);
    expect(judged(r, { messages: [{ role: 'system' }, { role: 'tool' }] })).toStrictEqual([]);
    expect(judged(r, { messages: [] })).toHaveLength(1);
  });
});

describe('follows rules', () => {
  const after = { roles: ['assistant'], nonEmpty: ['tool_calls'] };
  const r = (follows: MessageRule['follows']) => [rule({ follows })];
  const turn = (role: string, extra: Record<string, unknown> = {}) => ({ role, ...extra });
  const callTurn = turn('assistant', { tool_calls: [{}] });

  it('names an item that does not follow what it must, saying what that is', () => {
    expect(judged(r({ roles: ['tool'], after }), { messages: [turn('user'), turn('tool')] })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no',
        params: { index: 1, role: 'tool', field: 'role', path: 'messages.1' },
        detail: 'tool message 1 does not follow a assistant with tool_calls',
      },
    ]);
    expect(
      judged(r({ roles: ['tool'], after: { roles: ['assistant', 'model'] } }), { messages: [turn('tool')] }),
    ).toMatchObject([{ params: { index: 0 }, detail: 'tool message 0 does not follow a assistant/model' }]);
    expect(
      judged([rule({ list: 'input', follows: { roles: ['tool'], after } })], { input: [turn('tool')] })[0]?.detail,
    ).toBe('tool item 0 does not follow a assistant with tool_calls');
  });

  it('is answered by the item it must follow, looking back only through the roles it names', () => {
    expect(judged(r({ roles: ['tool'], after }), { messages: [turn('user'), callTurn, turn('tool')] })).toStrictEqual(
      [],
    );
    expect(
      judged(r({ roles: ['tool'], after, through: ['tool'] }), {
        messages: [turn('user'), callTurn, turn('tool'), turn('tool')],
      }),
    ).toStrictEqual([]);
    expect(
      judged(r({ roles: ['tool'], after }), { messages: [turn('user'), callTurn, turn('tool'), turn('tool')] }).map(
        (f) => f.params.index,
      ),
    ).toStrictEqual([3]);
    expect(
      judged(r({ roles: ['tool'], after, through: ['tool'] }), { messages: [turn('tool'), turn('tool')] }).map(
        (f) => f.params.index,
      ),
    ).toStrictEqual([0, 1]);
    expect(
      judged(r({ roles: ['tool'], after, through: ['tool'] }), { messages: [turn('user'), null, turn('tool')] }).map(
        (f) => f.params.index,
      ),
    ).toStrictEqual([2]);
    // An item it looks back through never answers, even of a role it could follow.
    expect(
      judged(r({ roles: ['tool'], after: { roles: ['tool'] }, through: ['tool'] }), {
        messages: [turn('tool'), turn('tool')],
      }).map((f) => f.params.index),
    ).toStrictEqual([0, 1]);
  });

  it('wants the fields it names present on what it follows, and only on the roles it names', () => {
    expect(
      judged(r({ roles: ['tool'], after }), { messages: [turn('assistant', { tool_calls: [] }), turn('tool')] }),
    ).toHaveLength(1);
    expect(
      judged(r({ roles: ['tool'], after }), { messages: [turn('user', { tool_calls: [{}] }), turn('tool')] }),
    ).toHaveLength(1);
    expect(
      judged(r({ roles: ['tool'], after: { roles: ['assistant'] } }), { messages: [turn('assistant'), turn('tool')] }),
    ).toStrictEqual([]);
    expect(judged(r({ roles: ['tool'], after }), { messages: [turn('user'), { content: 'x' }, 'tool'] })).toStrictEqual(
      [],
    );
  });
});

describe('contested rules', () => {
  it('cite the rejection’s sources, then the other side, or only the other side when the rejection has none', () => {
    const contested = { notes: 'other side', sources: ['https://example.com/other'] };
    const r = [rule({ fields: { empty: ['content'] }, contested })];
    expect(judgeMessageRules(spec(r), { messages: [{ role: 'user' }] })).toMatchObject([
      { contested: true, sources: ['https://example.com/own', 'https://example.com/other'] },
    ]);
    const orphan = { messageRules: [{ ...r[0]!, rejection: 'elsewhere' }], rejections: {} } as unknown as ProviderSpec;
    expect(judgeMessageRules(orphan, { messages: [{ role: 'user' }] })).toMatchObject([
      { contested: true, sources: ['https://example.com/other'] },
    ]);
    expect(judged([rule({ fields: { empty: ['content'] } })], { messages: [{ role: 'user' }] })[0]).not.toHaveProperty(
      'contested',
    );
  });
});
