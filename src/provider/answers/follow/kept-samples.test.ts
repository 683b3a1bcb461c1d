import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { KeptSamples } from './kept-samples.js';
import { sampleArguments } from './schema-arbitrary.js';

/** Tool parameter schemas: objects of a few typed, bounded properties, some required (what agents declare). */
const propertySchema = fc.oneof(
  fc.record({ type: fc.constant('string'), maxLength: fc.integer({ min: 1, max: 20 }) }),
  fc.record({
    type: fc.constant('integer'),
    minimum: fc.integer({ min: -50, max: 0 }),
    maximum: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({ type: fc.constant('number') }),
  fc.record({ type: fc.constant('boolean') }),
  fc.record({ enum: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }) }),
);
const toolSchema = fc
  .dictionary(fc.constantFrom('id', 'query', 'limit', 'unit', 'page'), propertySchema, { minKeys: 1, maxKeys: 4 })
  .chain((properties) =>
    fc
      .subarray(Object.keys(properties))
      .map((required) => ({ type: 'object', properties, required }) as Record<string, unknown>),
  );

describe('KeptSamples', () => {
  test('gives each schema and seed what sampling it afresh gives, in any order', () =>
    fc.assert(
      fc.property(
        fc.array(toolSchema, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 1, 7, 2 ** 31)), { minLength: 1, maxLength: 30 }),
        (schemas, asks) => {
          const kept = new KeptSamples();
          for (const [pick, seed] of asks) {
            const schema = schemas[pick % schemas.length]!;
            // As JSON: what both callers make of a sample (a -0 drawn reads back as 0, which JSON writes alike).
            expect(JSON.stringify(kept.get(schema, seed))).toBe(JSON.stringify(sampleArguments(schema, seed)));
          }
        },
      ),
    ));

  it('never gives one schema the sample kept for another with the same seed', () => {
    const kept = new KeptSamples();
    const asString = {
      type: 'object',
      properties: { order_id: { type: 'string', minLength: 3 } },
      required: ['order_id'],
    };
    const asInteger = {
      type: 'object',
      properties: { order_id: { type: 'integer', minimum: 1000 } },
      required: ['order_id'],
    };
    const first = kept.get(asString, 42);
    const second = kept.get(asInteger, 42);
    expect(first).toEqual(sampleArguments(asString, 42));
    expect(second).toEqual(sampleArguments(asInteger, 42));
    expect(typeof (first as { order_id: unknown }).order_id).toBe('string');
    expect(typeof (second as { order_id: unknown }).order_id).toBe('number');
    // Another seed, the same schema: its own draw.
    expect(kept.get(asString, 43)).toEqual(sampleArguments(asString, 43));
  });

  it('draws once per schema and seed, and hands each caller a value of its own', () => {
    let draws = 0;
    const kept = new KeptSamples(1024, 32 * 1024, (schema, seed) => {
      draws++;
      return sampleArguments(schema, seed);
    });
    const schema = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['tags'],
    };
    const one = kept.get(schema, 5) as { tags: string[] };
    one.tags.push('written-by-a-caller');
    const two = kept.get(schema, 5);
    // An equal copy of the schema (another request's parse of the same text) finds the same sample.
    const three = kept.get(structuredClone(schema), 5);
    expect(draws).toBe(1);
    expect(two).toEqual(sampleArguments(schema, 5));
    expect(three).toEqual(two);
  });

  it('keeps at most maxEntries samples, and never a schema over maxSchemaChars', () => {
    let draws = 0;
    const counting = (schema: unknown, seed: number) => (draws++, sampleArguments(schema, seed));
    const kept = new KeptSamples(2, 200, counting);
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    for (const seed of [1, 2, 3]) kept.get(schema, seed);
    expect(kept.size).toBe(2);
    kept.get(schema, 1); // the oldest went first: drawn again
    expect(draws).toBe(4);
    const large = { type: 'object', properties: { q: { type: 'string', description: 'x'.repeat(300) } } };
    expect(kept.get(large, 1)).toEqual(sampleArguments(large, 1));
    kept.get(large, 1);
    expect(draws).toBe(6);
    expect(kept.size).toBe(2);
  });
});
