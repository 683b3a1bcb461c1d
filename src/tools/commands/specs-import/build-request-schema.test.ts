import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildRequestSchema } from './build-request-schema.js';
import { distillOpenApi } from './formats/openapi.js';
import { applyOverlays } from './overlays.js';
import type { JsonSchema } from './distilled.js';

/** The value at a path of keys (and array indexes) inside a schema, for assertions. */
const at = (node: unknown, ...keys: Array<string | number>): unknown =>
  keys.reduce<unknown>((n, k) => (n as Record<string | number, unknown> | undefined)?.[k], node);

const sample = distillOpenApi(
  parseYaml(readFileSync(fileURLToPath(new URL('./__fixtures__/sample-openapi.yaml', import.meta.url)), 'utf8')),
  'sample',
  'sha',
  [{ name: 'chat', operationId: 'createChat' }],
);
const errorsOf = (schema: JsonSchema, body: unknown) => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return validate(body) ? [] : (validate.errors ?? []);
};
const chat = (messages: unknown[]) => ({ model: 'm', messages });

describe('building a request schema from a distilled definition', () => {
  const closed = buildRequestSchema(sample.defs, 'ChatRequest', { closed: true });

  it('merges allOf parts into one object, so closing it does not refuse the other part’s members', () => {
    expect(Object.keys(closed.properties as object)).toEqual([
      'temperature',
      'top_p',
      'model',
      'messages',
      'effort',
      'metadata',
    ]);
    expect(closed.required).toEqual(['model', 'messages']);
    expect(closed.additionalProperties).toBe(false);
    expect(errorsOf(closed, { ...chat([{ role: 'user', content: 'hi' }]), temperature: 1 })).toEqual([]);
    expect(errorsOf(closed, { ...chat([{ role: 'user', content: 'hi' }]), temperature: 3 })[0]).toMatchObject({
      keyword: 'maximum',
    });
  });

  it('judges a message by the branch its role names: an unknown key is reported once, by that branch', () => {
    const errors = errorsOf(closed, chat([{ role: 'assistant', content: null, reasoning_content: 'x' }]));
    const unknown = errors.filter((e) => e.keyword === 'additionalProperties');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({
      instancePath: '/messages/0',
      params: { additionalProperty: 'reasoning_content' },
    });
    // The user branch would have refused tool_calls too; it is not consulted for an assistant message.
    expect(errorsOf(closed, chat([{ role: 'assistant', tool_calls: [{ id: 'call_1' }] }]))).toEqual([]);
    expect(errorsOf(closed, chat([{ role: 'tool', content: 'x' }]))[0]).toMatchObject({
      instancePath: '/messages/0/role',
      keyword: 'enum',
      params: { allowedValues: ['user', 'assistant'] },
    });
  });

  it('leaves maps open, keeps patterns and nullables, and drops what no operation reaches', () => {
    expect(
      errorsOf(closed, { ...chat([{ role: 'user', content: 'x' }]), metadata: { any: 'thing' }, effort: null }),
    ).toEqual([]);
    expect(errorsOf(closed, chat([{ role: 'assistant', tool_calls: [{ id: 'nope' }] }]))[0]).toMatchObject({
      keyword: 'pattern',
    });
    expect(Object.keys(closed.$defs as object)).not.toContain('Unused');
  });

  it('does not close an open definition, nor a def named open', () => {
    const open = buildRequestSchema(sample.defs, 'ChatRequest', { closed: false });
    expect(errorsOf(open, { ...chat([{ role: 'user', content: 'x', extra: 1 }]), extra: 1 })).toEqual([]);
    const rootOpen = buildRequestSchema(sample.defs, 'ChatRequest', { closed: true, open: ['ChatRequest'] });
    expect(errorsOf(rootOpen, { ...chat([{ role: 'user', content: 'x' }]), extra: 1 })).toEqual([]);
    expect(errorsOf(rootOpen, chat([{ role: 'user', content: 'x', extra: 1 }]))).not.toEqual([]);
  });

  it('is the same whatever order the defs come in', () => {
    const reversed = Object.fromEntries(Object.entries(sample.defs).reverse());
    expect(buildRequestSchema(reversed, 'ChatRequest', { closed: true })).toEqual(closed);
  });
});

describe('overlays: where the real API differs from its definition', () => {
  it('add, drop, require and un-require members, each marked with its overlay', () => {
    const defs = applyOverlays(sample.defs, [
      {
        id: 'add',
        kind: 'add-member',
        at: 'AssistantMessage',
        member: 'reasoning_content',
        schema: { type: 'string' },
        evidence: ['https://example.org/a'],
      },
      {
        id: 'drop',
        kind: 'drop-member',
        at: 'ChatRequest#/allOf/1',
        member: 'metadata',
        evidence: ['https://example.org/b'],
      },
      { id: 'loose', kind: 'not-required', at: 'UserMessage', member: 'content', evidence: ['https://example.org/c'] },
      {
        id: 'strict',
        kind: 'required',
        at: 'AssistantMessage',
        member: 'content',
        evidence: ['https://example.org/d'],
      },
    ]);
    expect(at(defs.AssistantMessage, 'properties', 'reasoning_content')).toEqual({
      type: 'string',
      'x-source': 'overlay:add',
    });
    expect(defs.AssistantMessage!.required).toEqual(['role', 'content']);
    expect(defs.UserMessage!.required).toEqual(['role']);
    expect(at(defs.ChatRequest, 'allOf', 1, 'properties', 'metadata')).toBeUndefined();
    expect(sample.defs.UserMessage!.required).toEqual(['role', 'content']);
    expect(() =>
      applyOverlays(sample.defs, [
        { id: 'x', kind: 'drop-member', at: 'UserMessage', member: 'nope', evidence: ['https://e.org'] },
      ]),
    ).toThrow(/overlay "x": UserMessage has no member nope/);
  });

  it('proto JSON: every member also under its proto name, a required one under either', () => {
    const defs = applyOverlays(
      {
        R: {
          type: 'object',
          properties: { thinkingConfig: { type: 'object' }, maxTokens: { type: 'integer' } },
          required: ['maxTokens'],
        },
      },
      [{ id: 'names', kind: 'proto-json-names', evidence: ['https://protobuf.dev/programming-guides/json/'] }],
    );
    const schema = buildRequestSchema(defs, 'R', { closed: true });
    expect(errorsOf(schema, { thinking_config: {}, max_tokens: 1 })).toEqual([]);
    expect(errorsOf(schema, { maxTokens: 1 })).toEqual([]);
    expect(errorsOf(schema, { thinking_config: {} }).some((e) => e.keyword === 'required')).toBe(true);
  });

  it('lower-case enum values, as Google’s parser takes them', () => {
    const defs = applyOverlays({ T: { type: 'string', enum: ['OBJECT', 'STRING'] } }, [
      { id: 'lower', kind: 'enum-lowercase', evidence: ['https://ai.google.dev/gemini-api/docs/function-calling'] },
    ]);
    expect(defs.T!.enum).toEqual(['OBJECT', 'STRING', 'object', 'string']);
  });
});
