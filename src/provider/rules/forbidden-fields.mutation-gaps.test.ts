import { describe, expect, it } from 'vitest';
import type { ForbidRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { conditionHolds, judgeForbiddenFields } from './forbidden-fields.js';

/**
 * The forbid rules are spec data (Groq refusing `messages[N].reasoning` on models without
 * reasoning, Gemini's contested functionResponse.id, ...); the family tests reach them only through
 * the bundled specs, so Stryker found most of the walker, the filters and the finding's params
 * untested. These cases drive judgeForbiddenFields with hand-made rules, whatever the specs hold.
 */

const spec = (forbid: ForbidRule[]): ProviderSpec =>
  ({ forbid, rejections: { refused: { sources: ['https://example.com/provider-docs'] } } }) as unknown as ProviderSpec;

const body = {
  model: 'm',
  reasoning_effort: 'high',
  messages: [
    { role: 'user', content: 'q', reasoning: 'user-side' },
    { role: 'assistant', content: [{ type: 'thinking', thinking: 't' }], reasoning: 'why', reasoning_details: [] },
    { role: 'assistant', content: 'a', reasoning: null },
  ],
};

describe('conditionHolds', () => {
  it('tests presence with exists, and a deep value with equals', () => {
    expect(conditionHolds(body, { pointer: '/reasoning_effort', exists: true })).toBe(true);
    expect(conditionHolds(body, { pointer: '/reasoning_effort', exists: false })).toBe(false);
    expect(conditionHolds(body, { pointer: '/thinking', exists: true })).toBe(false);
    expect(conditionHolds(body, { pointer: '/thinking', exists: false })).toBe(true);
    expect(
      conditionHolds(body, { pointer: '/messages/1/content/0', equals: { type: 'thinking', thinking: 't' } }),
    ).toBe(true);
    expect(conditionHolds(body, { pointer: '/messages/1/content/0', equals: { type: 'thinking' } })).toBe(false);
  });
});

describe('judgeForbiddenFields', () => {
  it('finds nothing when the spec forbids nothing', () => {
    expect(judgeForbiddenFields({ rejections: {} } as unknown as ProviderSpec, body)).toEqual([]);
  });

  it('names every message carrying the field, with its index, role and path', () => {
    const findings = judgeForbiddenFields(spec([{ path: 'messages.*.reasoning', rejection: 'refused' }]), body);
    expect(findings.map((f) => f.params)).toStrictEqual([
      { path: 'messages.0.reasoning', field: 'reasoning', value: 'user-side', index: 0, role: 'user' },
      { path: 'messages.1.reasoning', field: 'reasoning', value: 'why', index: 1, role: 'assistant' },
      { path: 'messages.2.reasoning', field: 'reasoning', value: 'null', index: 2, role: 'assistant' },
    ]);
    expect(
      findings.every((f) => f.rule === 'strict-schema' && f.rejection === 'refused' && f.contested === undefined),
    ).toBe(true);
    expect(findings[1]!.detail).toBe('messages.1.reasoning is refused');
  });

  it('walks a fixed index and the keys of an object, and names the block inside a message', () => {
    const block = judgeForbiddenFields(spec([{ path: 'messages.1.content.*.thinking', rejection: 'refused' }]), body);
    expect(block.map((f) => f.params)).toStrictEqual([
      { path: 'messages.1.content.0.thinking', field: 'thinking', value: 't', index: 1, block: 0, role: 'assistant' },
    ]);
    const keys = judgeForbiddenFields(spec([{ path: 'messages.1.*', rejection: 'refused', ifType: 'array' }]), body);
    expect(keys.map((f) => f.params.path)).toStrictEqual(['messages.1.content', 'messages.1.reasoning_details']);
    expect(judgeForbiddenFields(spec([{ path: 'messages.7.reasoning', rejection: 'refused' }]), body)).toEqual([]);
    expect(judgeForbiddenFields(spec([{ path: 'messages.x.reasoning', rejection: 'refused' }]), body)).toEqual([]);
    expect(judgeForbiddenFields(spec([{ path: 'model.*', rejection: 'refused' }]), body)).toEqual([]);
  });

  it('names a top-level field without an index or a role', () => {
    const [finding, ...rest] = judgeForbiddenFields(
      spec([{ path: 'reasoning_effort', rejection: 'refused', rule: 'provider-accepts', notes: 'not on this model' }]),
      body,
    );
    expect(rest).toEqual([]);
    expect(finding!.params).toStrictEqual({ path: 'reasoning_effort', field: 'reasoning_effort', value: 'high' });
    expect(finding!.rule).toBe('provider-accepts');
    expect(finding!.detail).toBe('reasoning_effort is refused (not on this model)');
  });

  it('keeps only values of the rule’s JSON type', () => {
    const ofType = (ifType: ForbidRule['ifType']) =>
      judgeForbiddenFields(spec([{ path: 'messages.*.reasoning', rejection: 'refused', ifType }]), body).map(
        (f) => f.params.index,
      );
    expect(ofType('null')).toStrictEqual([2]);
    expect(ofType('string')).toStrictEqual([0, 1]);
    expect(ofType('object')).toStrictEqual([]);
  });

  it('keeps only messages of the listed roles, and never a field outside a message list', () => {
    const inRoles = (roles: string[], path = 'messages.*.reasoning') =>
      judgeForbiddenFields(spec([{ path, rejection: 'refused', roles }]), body).map((f) => f.params.path);
    expect(inRoles(['assistant'])).toStrictEqual(['messages.1.reasoning', 'messages.2.reasoning']);
    expect(inRoles(['user'])).toStrictEqual(['messages.0.reasoning']);
    expect(inRoles(['user'], 'reasoning_effort')).toStrictEqual([]);
  });

  it('applies a rule only when every whenBody condition holds and no unlessBody condition does', () => {
    const count = (rule: Partial<ForbidRule>) =>
      judgeForbiddenFields(spec([{ path: 'reasoning_effort', rejection: 'refused', ...rule }]), body).length;
    expect(count({ whenBody: [{ pointer: '/model', equals: 'm' }] })).toBe(1);
    expect(
      count({
        whenBody: [
          { pointer: '/model', equals: 'm' },
          { pointer: '/thinking', exists: true },
        ],
      }),
    ).toBe(0);
    expect(count({ unlessBody: [{ pointer: '/thinking', exists: true }] })).toBe(1);
    expect(
      count({
        unlessBody: [
          { pointer: '/thinking', exists: true },
          { pointer: '/model', equals: 'm' },
        ],
      }),
    ).toBe(0);
  });

  it('reads only whole numbers as list indexes, however many digits', () => {
    const long = {
      messages: [
        ...Array.from({ length: 10 }, () => ({ role: 'user', content: 'q' })),
        { role: 'assistant', content: 'a', reasoning: 'r', step2: [] },
      ],
    };
    const at = (path: string) =>
      judgeForbiddenFields(spec([{ path, rejection: 'refused' }]), long).map((f) => f.params);
    expect(at('messages.10.reasoning')).toStrictEqual([
      { path: 'messages.10.reasoning', field: 'reasoning', value: 'r', index: 10, role: 'assistant' },
    ]);
    expect(at('messages.10.*').map((p) => p.path)).toStrictEqual([
      'messages.10.role',
      'messages.10.content',
      'messages.10.reasoning',
      'messages.10.step2',
    ]);
    expect(at('messages.10.*').find((p) => p.field === 'step2')).toStrictEqual({
      path: 'messages.10.step2',
      field: 'step2',
      value: '[]',
      index: 10,
      role: 'assistant',
    });
    for (const path of ['messages.foo', 'messages.a1', 'messages.1a', 'messages.length'])
      expect(at(path), path).toStrictEqual([]);
  });

  it('finds a top-level field that is null, and gives no role for a message whose role is not a string', () => {
    const odd = { stop: null, messages: [{ role: 7, reasoning: 'r' }] };
    expect(
      judgeForbiddenFields(spec([{ path: 'stop', rejection: 'refused' }]), odd).map((f) => f.params),
    ).toStrictEqual([{ path: 'stop', field: 'stop', value: 'null' }]);
    expect(
      judgeForbiddenFields(spec([{ path: 'messages.*.reasoning', rejection: 'refused' }]), odd).map((f) => f.params),
    ).toStrictEqual([{ path: 'messages.0.reasoning', field: 'reasoning', value: 'r', index: 0 }]);
  });

  it('marks a contested rule and cites both sides', () => {
    const [finding] = judgeForbiddenFields(
      spec([
        {
          path: 'reasoning_effort',
          rejection: 'refused',
          contested: { sources: ['https://example.com/accepted'] },
        } as ForbidRule,
      ]),
      body,
    );
    expect(finding!.contested).toBe(true);
    expect(finding!.sources).toStrictEqual(['https://example.com/provider-docs', 'https://example.com/accepted']);
    const [unknownRejection] = judgeForbiddenFields(
      spec([
        {
          path: 'reasoning_effort',
          rejection: 'other',
          contested: { sources: ['https://example.com/accepted'] },
        } as ForbidRule,
      ]),
      body,
    );
    expect(unknownRejection!.sources).toStrictEqual(['https://example.com/accepted']);
  });
});
