import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { geminiFunctionParameters } from './function-parameters.js';

describe('geminiFunctionParameters', () => {
  it('keeps a schema inside the Gemini Schema subset as parameters', () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string', enum: ['Oslo'] }, days: { type: 'array', items: { type: 'integer' } } },
      required: ['city'],
    };
    expect(geminiFunctionParameters(schema)).toEqual({ parameters: schema });
  });

  it('sends a schema with additionalProperties, at any depth, whole as parametersJsonSchema', () => {
    const top = { type: 'object', properties: {}, additionalProperties: false };
    expect(geminiFunctionParameters(top)).toEqual({ parametersJsonSchema: top });
    const deep = { type: 'object', properties: { a: { type: 'object', additionalProperties: { type: 'string' } } } };
    expect(geminiFunctionParameters(deep)).toEqual({ parametersJsonSchema: deep });
    const inAnyOf = { anyOf: [{ type: 'string' }, { type: 'object', $schema: 'x' }] };
    expect(geminiFunctionParameters(inAnyOf)).toEqual({ parametersJsonSchema: inAnyOf });
  });

  it('adds nothing for a tool without parameters', () => {
    expect(geminiFunctionParameters(undefined)).toEqual({});
  });

  test('never loses or changes the schema it is given', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (schema) => {
        const out = geminiFunctionParameters(schema);
        expect(Object.values(out)).toEqual([schema]);
      }),
    );
  });
});
