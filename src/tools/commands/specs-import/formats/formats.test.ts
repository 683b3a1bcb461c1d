import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { forEachSchema, type Distilled } from '../distilled.js';
import { distillDiscovery } from './discovery.js';
import { distillOpenApi } from './openapi.js';
import { distillProto } from './proto.js';
import { distillSmithy } from './smithy.js';
import { distillTypeScriptSdk } from './typescript-sdk.js';

/** The value at a path of keys (and array indexes) inside a schema, for assertions. */
const at = (node: unknown, ...keys: Array<string | number>): unknown =>
  keys.reduce<unknown>((n, k) => (n as Record<string | number, unknown> | undefined)?.[k], node);

const fixture = (name: string) => fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url));
const read = (name: string) => readFileSync(fixture(name), 'utf8');

/** No prose: no schema in a distilled form keeps a description, title, example or vendor extension. */
function prose(distilled: Distilled): string[] {
  const found: string[] = [];
  for (const def of Object.values(distilled.defs))
    forEachSchema(def, (node) => {
      for (const key of Object.keys(node))
        if (
          ['description', 'title', 'example', 'examples', 'default', 'enumDescriptions'].includes(key) ||
          /^x-(?!source$|tag$)/.test(key)
        )
          found.push(key);
    });
  return found;
}

describe('distilling the providers’ definition formats (hand-made samples)', () => {
  it('OpenAPI 3: reachable component schemas, structure only, nullable and 3.0 exclusive bounds rewritten', () => {
    const d = distillOpenApi(parseYaml(read('sample-openapi.yaml')), 'sample', 'sha', [
      { name: 'chat', operationId: 'createChat' },
    ]);
    expect(d.operations).toEqual({ chat: { request: 'ChatRequest' } });
    expect(Object.keys(d.defs).sort()).toEqual([
      'AssistantMessage',
      'ChatRequest',
      'Message',
      'Sampling',
      'UserMessage',
    ]);
    expect(d.defs.ChatRequest!['x-source']).toBe('sample#/components/schemas/ChatRequest');
    const own = at(d.defs.ChatRequest, 'allOf', 1) as {
      required: unknown;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(own.required).toEqual(['model', 'messages']);
    expect(own.properties.effort).toEqual({ type: ['string', 'null'], enum: ['low', 'high', null] });
    expect(own.properties.messages?.minItems).toBe(1);
    expect(at(d.defs.Sampling, 'properties', 'top_p')).toEqual({ type: 'number', maximum: 1, exclusiveMinimum: 0 });
    expect(prose(d)).toEqual([]);
    expect(() => distillOpenApi({ swagger: '2.0' }, 'x', 's', [])).toThrow(/not an OpenAPI 3/);
    expect(() =>
      distillOpenApi(parseYaml(read('sample-openapi.yaml')), 'x', 's', [{ name: 'n', operationId: 'nope' }]),
    ).toThrow(/found 0 times/);
  });

  it('discovery: "Required." marks required members, int64 strings take numbers, bounds are numbers', () => {
    const d = distillDiscovery(JSON.parse(read('sample-discovery.json')), 'disc', 'sha', [
      { name: 'generate', methodId: 'sample.models.generate' },
    ]);
    expect(d.operations.generate!.request).toBe('GenerateRequest');
    expect(Object.keys(d.defs)).not.toContain('GenerateResponse');
    expect(d.defs.GenerateRequest!.required).toEqual(['contents']);
    expect(d.defs.Content!.required).toEqual(['parts']);
    expect(d.defs.FunctionCall!.required).toEqual(['name']);
    const config = d.defs.GenerationConfig!.properties as Record<string, Record<string, unknown>>;
    expect(config.seed).toEqual({ type: ['string', 'integer'] });
    expect(config.maxOutputTokens).toEqual({ type: 'integer', minimum: 1 });
    expect(config.thinkingLevel?.enum).toEqual(['THINKING_LEVEL_UNSPECIFIED', 'LOW', 'HIGH']);
    expect(at(d.defs.GenerateRequest, 'properties', 'labels', 'additionalProperties')).toEqual({ type: 'string' });
    expect(prose(d)).toEqual([]);
  });

  it('Smithy JSON AST: required, length and range traits, enums by value, unions with one member, no URL members', () => {
    const d = distillSmithy(JSON.parse(read('sample-smithy.json')), 'aws', 'sha', [
      { name: 'converse', shape: 'sample#Converse' },
    ]);
    const request = d.defs.ConverseRequest!;
    expect(Object.keys(request.properties as object)).toEqual([
      'messages',
      'inferenceConfig',
      'additionalModelRequestFields',
    ]);
    expect(request.required).toBeUndefined();
    expect(d.defs.Messages).toMatchObject({ type: 'array', minItems: 1 });
    expect(d.defs.Role).toMatchObject({ type: 'string', enum: ['user', 'assistant'] });
    expect(d.defs.ContentBlock).toMatchObject({ minProperties: 1, maxProperties: 1 });
    expect(at(d.defs.ContentBlock, 'properties', 'text')).toEqual({ type: 'string', minLength: 1 });
    expect(at(d.defs.InferenceConfig, 'properties', 'temperature')).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(d.defs.ReasoningText!.required).toEqual(['text']);
    expect(prose(d)).toEqual([]);
  });

  it('proto3: JSON names, field_behavior REQUIRED except what the HTTP binding takes from the URL, enums and maps', () => {
    const d = distillProto(['sample/v1/service.proto'], fixture('sample-proto'), 'gapi', 'sha', [
      { name: 'generate', rpc: 'sample.v1.Generator.Generate' },
    ]);
    const request = d.defs['sample.v1.GenerateRequest']!;
    expect(request.required).toEqual(['contents']);
    expect(Object.keys(request.properties as object)).toEqual(['model', 'contents', 'thinkingConfig', 'labels']);
    expect(at(request, 'properties', 'labels')).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    expect(d.defs['sample.v1.ThinkingConfig.Level']).toMatchObject({ enum: ['LEVEL_UNSPECIFIED', 'LOW', 'HIGH'] });
    expect(d.defs['sample.v1.Part']!.properties).toMatchObject({
      functionCall: {},
      thoughtSignature: { type: 'string' },
    });
    expect(at(d.defs['sample.v1.FunctionCall'], 'properties', 'callCount')).toEqual({ type: ['string', 'integer'] });
    expect(d.defs['sample.v1.FunctionCall']!.required).toEqual(['name']);
    expect(d.defs['sample.v1.Part']!['x-source']).toBe('gapi:sample.v1.Part');
  });

  it('TypeScript SDK declarations: optional members, literal unions as enums, open string unions as strings', () => {
    const d = distillTypeScriptSdk(fixture(''), ['sample-sdk.d.ts'], 'sdk', 'sha', [
      { name: 'create', file: 'sample-sdk.d.ts', type: 'CreateParams' },
    ]);
    const root = d.defs.CreateParams!;
    expect(root.required).toEqual(['model', 'max_tokens', 'messages']);
    const members = root.properties as Record<string, unknown>;
    expect(members.model).toEqual({ type: 'string' });
    expect(members.stream).toEqual({ anyOf: [{ type: 'boolean' }, { type: 'null' }] });
    expect(members.metadata).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(at(d.defs.MessageParam, 'properties', 'role')).toEqual({ type: 'string', enum: ['user', 'assistant'] });
    expect(d.defs.ThinkingBlock!.required).toEqual(['type', 'thinking', 'signature']);
    expect(d.defs.ThinkingBlock!['x-source']).toBe('sdk:sample-sdk.d.ts#ThinkingBlock');
    expect(prose(d)).toEqual([]);
  });
});

describe('distilling the answer side: where a pin names the answer and event types', () => {
  it('OpenAPI: the named components join the closure; an undefined one is an error', () => {
    const d = distillOpenApi(parseYaml(read('sample-openapi.yaml')), 'sample', 'sha', [
      { name: 'chat', operationId: 'createChat', response: 'AssistantMessage', events: 'Message' },
    ]);
    expect(d.operations).toEqual({ chat: { request: 'ChatRequest', response: 'AssistantMessage', events: 'Message' } });
    expect(d.defs.Message!['x-source']).toBe('sample#/components/schemas/Message');
    expect(() =>
      distillOpenApi(parseYaml(read('sample-openapi.yaml')), 'sample', 'sha', [
        { name: 'chat', operationId: 'createChat', response: 'Nope' },
      ]),
    ).toThrow(/Nope is not defined/);
  });

  it('OpenAPI: a stream schema given inline in the 200 answer becomes the def the pin names', () => {
    const d = distillOpenApi(parseYaml(read('sample-openapi.yaml')), 'sample', 'sha', [
      { name: 'chat', operationId: 'createChat', response: 'AssistantMessage', events: 'ChatStreamEvent' },
    ]);
    expect(d.operations.chat).toEqual({
      request: 'ChatRequest',
      response: 'AssistantMessage',
      events: 'ChatStreamEvent',
    });
    expect(d.defs.ChatStreamEvent).toEqual({
      oneOf: [
        { $ref: '#/$defs/AssistantMessage' },
        { type: 'object', required: ['type'], properties: { type: { type: 'string', enum: ['done'] } } },
      ],
      'x-source': 'sample#/paths/~1chat/post/responses/200/content/text~1event-stream/schema',
    });
  });

  it('TypeScript SDK: an answer interface and an event union, by name or as path#Name', () => {
    const d = distillTypeScriptSdk(fixture(''), ['sample-sdk.d.ts'], 'sdk', 'sha', [
      {
        name: 'create',
        file: 'sample-sdk.d.ts',
        type: 'CreateParams',
        response: 'sample-sdk.d.ts#ThinkingBlock',
        events: 'StreamEvent',
      },
    ]);
    expect(d.operations.create).toEqual({ request: 'CreateParams', response: 'ThinkingBlock', events: 'StreamEvent' });
    expect(d.defs.ThinkingBlock!.required).toEqual(['type', 'thinking', 'signature']);
    expect(d.defs.StreamEvent!.anyOf).toEqual([{ $ref: '#/$defs/TextBlock' }, { $ref: '#/$defs/ThinkingBlock' }]);
    expect(() =>
      distillTypeScriptSdk(fixture(''), ['sample-sdk.d.ts'], 'sdk', 'sha', [
        { name: 'create', file: 'sample-sdk.d.ts', type: 'CreateParams', events: 'Nope' },
      ]),
    ).toThrow(/exports no Nope/);
  });

  it('proto: the response message, by full name', () => {
    const d = distillProto(['sample/v1/service.proto'], fixture('sample-proto'), 'gapi', 'sha', [
      {
        name: 'generate',
        rpc: 'sample.v1.Generator.Generate',
        response: 'sample.v1.GenerateResponse',
        events: 'sample.v1.GenerateResponse',
      },
    ]);
    expect(d.operations.generate).toEqual({
      request: 'sample.v1.GenerateRequest',
      response: 'sample.v1.GenerateResponse',
      events: 'sample.v1.GenerateResponse',
    });
    expect(d.defs['sample.v1.GenerateResponse']!.type).toBe('object');
  });

  it('Smithy: the output shape, by id; an unknown id is an error', () => {
    const d = distillSmithy(JSON.parse(read('sample-smithy.json')), 'aws', 'sha', [
      { name: 'converse', shape: 'sample#Converse', response: 'sample#ConverseResponse' },
    ]);
    expect(d.operations.converse).toEqual({ request: 'ConverseRequest', response: 'ConverseResponse' });
    expect(d.defs.ConverseResponse!['x-source']).toBe('aws#sample#ConverseResponse');
    expect(() =>
      distillSmithy(JSON.parse(read('sample-smithy.json')), 'aws', 'sha', [
        { name: 'converse', shape: 'sample#Converse', response: 'sample#Nope' },
      ]),
    ).toThrow(/sample#Nope is not defined/);
  });

  it('a pin that names no answer types distils the request side only, as before', () => {
    const d = distillOpenApi(parseYaml(read('sample-openapi.yaml')), 'sample', 'sha', [
      { name: 'chat', operationId: 'createChat' },
    ]);
    expect(d.operations.chat).toEqual({ request: 'ChatRequest' });
    expect(d.defs.Unused).toBeUndefined();
  });
});
