import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { judgeRequestSchema } from './request-schema-judge.js';

/**
 * The shared schema judge driven directly with hand-made specs: a small closed request schema and
 * the request options a provider spec may set (which rejection answers an unknown key, a top-level
 * one, a missing model, a missing field, a null member, anything else). The family tests reach it
 * only through each bundled spec; these cases pin what a client is told (which rejection, index,
 * role, field and path, in which order) whatever the specs hold.
 */

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'messages'],
  properties: {
    model: { type: 'string' },
    temperature: { type: 'number' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'content'],
        properties: {
          role: { enum: ['user', 'assistant'] },
          content: {
            anyOf: [
              { type: 'string' },
              {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['type'],
                  properties: { type: { type: 'string' }, text: { type: 'string' } },
                },
              },
            ],
          },
          tool_calls: {
            type: 'array',
            items: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } },
          },
        },
      },
    },
    meta: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { k: { type: 'string' }, type: { type: 'string' } },
      },
    },
  },
};

type Request = Partial<ProviderSpec['request']>;
const spec = (request: Request = {}, family = 'openai-chat'): ProviderSpec =>
  ({ family, request: { schema: SCHEMA, ...request }, rejections: {} }) as unknown as ProviderSpec;
const openai: Request = {
  unknownFieldRejection: 'unknown',
  invalidRejection: 'invalid',
  missingModelRejection: 'no-model',
  missingFieldRejection: 'no-field',
};
const ok = (extra: Record<string, unknown> = {}) => ({
  model: 'm',
  messages: [{ role: 'user', content: 'q' }],
  ...extra,
});
const judged = (request: Request, body: unknown, family?: string) => judgeRequestSchema(spec(request, family), body);

describe('judgeRequestSchema: unknown keys', () => {
  it('finds nothing in a body the schema accepts', () => {
    expect(judged(openai, ok())).toStrictEqual([]);
  });

  it('names a nested unknown key by message index, role, field and path, in OpenAI notation too', () => {
    const body = ok({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', tool_calls: [{ id: 'c', index: 0 }] },
      ],
    });
    expect(judged(openai, body)).toStrictEqual([
      {
        rule: 'strict-schema',
        rejection: 'unknown',
        params: {
          index: 1,
          role: 'assistant',
          field: 'index',
          path: 'messages.1.tool_calls.0.index',
          param: 'messages[1].tool_calls[0].index',
        },
        detail: 'unexpected property "index" at /messages/1/tool_calls/0',
      },
    ]);
  });

  it('answers a top-level unknown key with its own rejection when the spec has one, without an index', () => {
    expect(judged(openai, ok({ reasoning: {} }))).toStrictEqual([
      {
        rule: 'strict-schema',
        rejection: 'unknown',
        params: { path: 'reasoning', field: 'reasoning', param: 'reasoning' },
        detail: 'unexpected property "reasoning" at /',
      },
    ]);
    expect(
      judged({ ...openai, unknownTopLevelRejection: 'unknown-top' }, ok({ reasoning: {} })).map((f) => f.rejection),
    ).toStrictEqual(['unknown-top']);
    const nested = ok({ messages: [{ role: 'user', content: 'q', reasoning: 'r' }] });
    expect(
      judged({ ...openai, unknownTopLevelRejection: 'unknown-top' }, nested).map((f) => f.rejection),
    ).toStrictEqual(['unknown']);
  });

  it('reports only the unknown keys when there are any, each once, as providers name only the key', () => {
    const body = { model: 7, messages: [{ role: 'user', content: [{ type: 'text', text: 'q', cache: 1 }], extra: 1 }] };
    expect(judged(openai, body).map((f) => f.params.path)).toStrictEqual([
      'messages.0.extra',
      'messages.0.content.0.cache',
    ]);
  });

  it('words an unknown key as invalid when the spec has no unknown-field rejection', () => {
    expect(judged({ invalidRejection: 'invalid' }, ok({ reasoning: {} }))).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'invalid',
        params: { path: '', field: '' },
        detail: '/ must NOT have additional properties',
      },
    ]);
    expect(judged({}, ok({ reasoning: {} }))).toStrictEqual([]);
  });

  it("names the block's type in the path for Anthropic (pydantic tagged unions), and only there", () => {
    const body = ok({
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'a' },
            { type: 'tool_use', text: 'x', id: 'i' },
          ],
        },
      ],
    });
    expect(judged(openai, body, 'anthropic-messages')[0]?.params).toStrictEqual({
      index: 1,
      role: 'assistant',
      field: 'id',
      path: 'messages.1.content.1.tool_use.id',
      param: 'messages[1].content[1].tool_use.id',
    });
    expect(judged(openai, body)[0]?.params.path).toBe('messages.1.content.1.id');
    // No tag for a block without a string type, nor for an index that is not a content block.
    const untyped = ok({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 3, id: 'i' }] },
      ],
    });
    expect(judged(openai, untyped, 'anthropic-messages').find((f) => f.params.field === 'id')?.params.path).toBe(
      'messages.1.content.0.id',
    );
    expect(
      judged(openai, ok({ messages: [{ role: 'user', content: 'q', x: 1 }] }), 'anthropic-messages')[0]?.params.path,
    ).toBe('messages.0.x');
    expect(judged(openai, ok({ meta: [{ type: 'a', j: 1 }] }), 'anthropic-messages')[0]?.params.path).toBe('meta.0.j');
  });

  it('names no role for a list item without one, and no index outside a top-level list', () => {
    expect(judged(openai, ok({ meta: [{ k: 'a' }, { z: 1 }] }))[0]?.params).toStrictEqual({
      index: 1,
      field: 'z',
      path: 'meta.1.z',
      param: 'meta[1].z',
    });
  });
});

describe('judgeRequestSchema: missing and invalid values', () => {
  it('answers a missing model first, with its own rejection', () => {
    expect(judged(openai, { messages: [{ role: 'robot', content: 'q' }] })[0]).toStrictEqual({
      rule: 'provider-accepts',
      rejection: 'no-model',
      params: { field: 'model', path: 'model' },
      detail: 'the body names no model',
    });
    expect(judged({ ...openai, missingModelRejection: undefined }, { messages: [] })[0]).toStrictEqual({
      rule: 'provider-accepts',
      rejection: 'no-field',
      params: { field: 'model', path: 'model' },
      detail: 'the body has no model',
    });
  });

  it('answers another missing top-level field with the missing-field rejection, and a nested one as invalid', () => {
    expect(judged(openai, { model: 'm' })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'no-field',
        params: { field: 'messages', path: 'messages' },
        detail: 'the body has no messages',
      },
    ]);
    expect(judged({ invalidRejection: 'invalid' }, { model: 'm' })).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'invalid',
        params: { path: '', field: '' },
        detail: "/ must have required property 'messages'",
      },
    ]);
    expect(judged(openai, ok({ messages: [{ role: 'user' }] }))).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'invalid',
        params: { index: 0, role: 'user', path: 'messages.0', field: 'messages.0' },
        detail: "/messages/0 must have required property 'content'",
      },
    ]);
  });

  it('answers a wrong value as invalid at its path, and nothing when the spec has no such rejection', () => {
    expect(judged(openai, ok({ temperature: 'hot' }))).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'invalid',
        params: { path: 'temperature', field: 'temperature' },
        detail: '/temperature must be number',
      },
    ]);
    expect(judged({ unknownFieldRejection: 'unknown' }, ok({ temperature: 'hot' }))).toStrictEqual([]);
  });
});

describe('judgeRequestSchema: members that must not be null (AWS)', () => {
  const aws: Request = { ...openai, nullMemberRejection: 'null-member' };

  it('answers a nested required member that is absent or null with the null-member rejection, in AWS notation', () => {
    const expected = (detail: string) => ({
      rule: 'provider-accepts',
      rejection: 'null-member',
      params: {
        index: 0,
        role: 'user',
        field: 'content',
        path: 'messages.0.content',
        member: 'messages.0.member.content',
      },
      detail,
    });
    expect(judged(aws, ok({ messages: [{ role: 'user' }] }))).toStrictEqual([
      expected('/messages/0/content is absent or null'),
    ]);
    expect(judged(aws, ok({ messages: [{ role: 'user', content: null }] }))).toStrictEqual([
      expected('/messages/0/content is absent or null'),
    ]);
  });

  it('answers a null member the same whatever its schema asks of a value there (an enum, a union)', () => {
    // AWS reads a null member as an absent one: a null role is "Member must not be null", not an invalid value.
    expect(judged(aws, ok({ messages: [{ role: null, content: 'q' }] }))).toStrictEqual([
      {
        rule: 'provider-accepts',
        rejection: 'null-member',
        params: { index: 0, field: 'role', path: 'messages.0.role', member: 'messages.0.member.role' },
        detail: '/messages/0/role is absent or null',
      },
    ]);
    expect(judged(aws, ok({ messages: [{ role: 'user', content: null }] })).map((f) => f.rejection)).toStrictEqual([
      'null-member',
    ]);
  });

  it('reads a null member inside a list item, and leaves top-level members to the other rejections', () => {
    const body = ok({ messages: [{ role: 'user', content: [{ type: null, text: 'q' }] }] });
    expect(judged(aws, body)[0]).toMatchObject({
      rejection: 'null-member',
      params: { field: 'type', path: 'messages.0.content.0.type', member: 'messages.0.member.content.0.member.type' },
    });
    expect(judged(aws, { model: 'm', messages: null }).map((f) => f.rejection)).not.toContain('null-member');
    expect(judged(aws, { messages: [{ role: 'user', content: 'q' }] }).map((f) => f.rejection)).toStrictEqual([
      'no-model',
    ]);
  });

  it('puts null members before the other value errors, and lets a null optional member be a plain type error', () => {
    const body = ok({ temperature: 'hot', messages: [{ role: 'user', content: null }] });
    expect(judged(aws, body).map((f) => `${f.rejection} ${String(f.params.path)}`)).toStrictEqual([
      'null-member messages.0.content',
      'invalid temperature',
    ]);
    const optional = ok({ messages: [{ role: 'user', content: 'q', tool_calls: null }] });
    expect(judged(aws, optional).map((f) => f.rejection)).toStrictEqual(['invalid']);
    expect(
      judged(openai, ok({ messages: [{ role: 'user', content: null }] })).every((f) => f.rejection === 'invalid'),
    ).toBe(true);
  });
});
