import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { arbitraryForSchema, sampleArguments } from './schema-arbitrary.js';

const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };
const ajv = new Ajv({ strict: false });
addFormats.default(ajv);

/** Tool schemas as agents declare them: zod-to-json-schema output, hand-written, Gemini's OpenAPI dialect. */
const SCHEMAS: Record<string, unknown> = {
  empty: { type: 'object', properties: {} },
  'nested object with required keys': {
    type: 'object',
    properties: {
      user: {
        type: 'object',
        properties: { id: { type: 'integer', minimum: 1 }, email: { type: 'string', format: 'email' } },
        required: ['id'],
      },
    },
    required: ['user'],
    additionalProperties: false,
  },
  'enum, const and nullable unions': {
    type: 'object',
    properties: { unit: { enum: ['c', 'f'] }, v: { const: 2 }, note: { type: ['string', 'null'] } },
    required: ['unit', 'v', 'note'],
  },
  'bounded strings and numbers': {
    type: 'object',
    properties: {
      code: { type: 'string', minLength: 3, maxLength: 5 },
      ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      step: { type: 'number', multipleOf: 0.5, minimum: 0, maximum: 10 },
    },
    required: ['code', 'ratio', 'step'],
  },
  'pattern and formats': {
    type: 'object',
    properties: {
      sku: { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' },
      when: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      id: { type: 'string', format: 'uuid' },
      link: { type: 'string', format: 'uri' },
    },
    required: ['sku', 'when', 'day', 'id', 'link'],
  },
  'arrays with bounds and unique items': {
    type: 'object',
    properties: {
      tags: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: 3, uniqueItems: true },
    },
    required: ['tags'],
  },
  'anyOf and $ref into $defs': {
    type: 'object',
    $defs: {
      point: {
        type: 'object',
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        required: ['x', 'y'],
        additionalProperties: false,
      },
    },
    properties: { at: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'string', minLength: 1 }] } },
    required: ['at'],
  },
  'recursive $ref': {
    type: 'object',
    $defs: {
      node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/node' }, maxItems: 2 },
        },
        required: ['name'],
      },
    },
    properties: { tree: { $ref: '#/$defs/node' } },
    required: ['tree'],
  },
};

/** Gemini's dialect (upper-case types, nullable) read as the JSON Schema it means. */
const GEMINI = {
  type: 'OBJECT',
  properties: {
    city: { type: 'STRING' },
    days: { type: 'INTEGER', minimum: 1, maximum: 7 },
    note: { type: 'STRING', nullable: true },
  },
  required: ['city', 'days'],
};
const GEMINI_AS_JSON_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    note: { type: ['string', 'null'] },
  },
  required: ['city', 'days'],
};

describe('arguments generated from a tool schema', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    const validate = ajv.compile(schema as object);
    test(`are valid against it: ${name}`, () => {
      fc.assert(
        fc.property(arbitraryForSchema(schema), (value) => {
          expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
        }),
        { numRuns: 60 },
      );
    });
  }

  const validateGemini = ajv.compile(GEMINI_AS_JSON_SCHEMA);
  test('are valid for a Gemini OpenAPI-style declaration', () => {
    fc.assert(
      fc.property(arbitraryForSchema(GEMINI), (value) => {
        expect(validateGemini(value), JSON.stringify(validateGemini.errors)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('are the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const schema = SCHEMAS['nested object with required keys'];
        expect(sampleArguments(schema, seed)).toEqual(sampleArguments(schema, seed));
      }),
      { numRuns: 30 },
    );
  });
});
