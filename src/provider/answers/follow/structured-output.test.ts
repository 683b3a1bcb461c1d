import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { followAnswer } from './follow-answer.js';

/**
 * Structured output in follow mode: a client that asks any family for JSON gets answer text that parses and satisfies
 * the schema it sent, in the member that family's API puts it; one that asks for nothing gets words.
 */
const specs = loadProviderSpecs();
const spec = (id: string) => specs.find((s) => s.id === id)!;
const ajv = new Ajv2020({ strict: false });

const EVENT = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    day: { enum: ['monday', 'friday'] },
    participants: { type: 'array', items: { type: 'string' }, minItems: 1 },
    seats: { type: 'integer', minimum: 1, maximum: 12 },
    place: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
  required: ['title', 'day', 'participants', 'seats', 'place'],
  additionalProperties: false,
};
const ask = { role: 'user', content: 'Extract the event: Alice and Bob meet for lunch on Friday.' };

type Block = { type?: string; text?: unknown; thought?: boolean; content?: Block[] };
/** The first block of `blocks` with a string text (and, when given, of `type`). */
const textOf = (blocks: Block[] | undefined, type?: string): string =>
  String((blocks ?? []).find((b) => typeof b.text === 'string' && (type === undefined || b.type === type))?.text);
const chatText = (b: unknown) =>
  String((b as { choices: Array<{ message: { content: unknown } }> }).choices[0]!.message.content);
const geminiText = (b: unknown) =>
  (b as { candidates: Array<{ content: { parts: Block[] } }> }).candidates[0]!.content.parts.filter(
    (p) => !p.thought && typeof p.text === 'string',
  )
    .map((p) => String(p.text))
    .join('');

/** Each family's request asking for `schema`, and where its answer text sits in the body. */
const FAMILIES: Record<string, { spec: string; body: (schema: object) => object; text: (body: unknown) => string }> = {
  'chat response_format json_schema': {
    spec: 'openai',
    body: (schema) => ({
      model: 'gpt-5',
      messages: [ask],
      response_format: { type: 'json_schema', json_schema: { name: 'event', strict: true, schema } },
    }),
    text: chatText,
  },
  'responses text.format json_schema': {
    spec: 'openai-responses',
    body: (schema) => ({
      model: 'gpt-5',
      input: [ask],
      text: { format: { type: 'json_schema', name: 'event', strict: true, schema } },
    }),
    text: (b) => textOf((b as { output: Block[] }).output.find((o) => o.type === 'message')?.content),
  },
  'gemini responseJsonSchema': {
    spec: 'gemini',
    body: (schema) => ({
      contents: [{ role: 'user', parts: [{ text: ask.content }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    }),
    text: geminiText,
  },
  'anthropic output_config.format': {
    spec: 'anthropic',
    body: (schema) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [ask],
      output_config: { format: { type: 'json_schema', schema } },
    }),
    text: (b) => textOf((b as { content: Block[] }).content, 'text'),
  },
  'anthropic output_format (beta)': {
    spec: 'anthropic',
    body: (schema) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [ask],
      output_format: { type: 'json_schema', schema },
    }),
    text: (b) => textOf((b as { content: Block[] }).content, 'text'),
  },
  'bedrock outputConfig.textFormat': {
    spec: 'bedrock-claude',
    body: (schema) => ({
      messages: [{ role: 'user', content: [{ text: ask.content }] }],
      outputConfig: {
        textFormat: {
          type: 'json_schema',
          structure: { jsonSchema: { name: 'event', schema: JSON.stringify(schema) } },
        },
      },
    }),
    text: (b) => textOf((b as { output: { message: { content: Block[] } } }).output.message.content),
  },
};

const answerText = (family: string, schema: object, seed = 7): string => {
  const f = FAMILIES[family]!;
  const made = followAnswer(spec(f.spec) as ProviderSpec, f.body(schema), 0, seed);
  return f.text(made!.rendered.body);
};

describe('structured output in follow mode', () => {
  it.each(Object.keys(FAMILIES))('%s: the answer is JSON that satisfies the requested schema', (family) => {
    const value: unknown = JSON.parse(answerText(family, EVENT));
    expect(ajv.validate(EVENT, value), JSON.stringify(ajv.errors)).toBe(true);
  });

  test('any seed, any family: the answer satisfies the schema', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FAMILIES)),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (family, seed) => {
          expect(ajv.validate(EVENT, JSON.parse(answerText(family, EVENT, seed)))).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('json_object (chat) and a JSON mime type alone (Gemini) answer a JSON object', () => {
    const chat = followAnswer(
      spec('openai'),
      { model: 'gpt-5', messages: [ask], response_format: { type: 'json_object' } },
      0,
      1,
    )!;
    expect(JSON.parse(chatText(chat.rendered.body))).toBeTypeOf('object');
    const gemini = followAnswer(
      spec('gemini'),
      {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        generationConfig: { responseMimeType: 'application/json' },
      },
      0,
      1,
    )!;
    expect(JSON.parse(FAMILIES['gemini responseJsonSchema']!.text(gemini.rendered.body))).toBeTypeOf('object');
  });

  it("Gemini's OpenAPI-style responseSchema and its text/x.enum are honoured", () => {
    const objectSchema = {
      type: 'OBJECT',
      properties: { city: { type: 'STRING' }, days: { type: 'INTEGER' } },
      required: ['city', 'days'],
    };
    const body = (config: object) => ({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: config,
    });
    const parsed = JSON.parse(
      FAMILIES['gemini responseJsonSchema']!.text(
        followAnswer(
          spec('gemini'),
          body({ responseMimeType: 'application/json', responseSchema: objectSchema }),
          0,
          3,
        )!.rendered.body,
      ),
    );
    expect(typeof parsed.city).toBe('string');
    expect(Number.isInteger(parsed.days)).toBe(true);
    const choice = FAMILIES['gemini responseJsonSchema']!.text(
      followAnswer(
        spec('gemini'),
        body({ responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['red', 'green'] } }),
        0,
        3,
      )!.rendered.body,
    );
    expect(['red', 'green']).toContain(choice);
  });

  it('a request that asks for no format gets words', () => {
    const made = followAnswer(spec('openai'), { model: 'gpt-5', messages: [ask] }, 0, 1)!;
    expect(chatText(made.rendered.body)).toBe('Hello from the reasoning-replay mock.');
  });
});
