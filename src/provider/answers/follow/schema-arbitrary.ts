import fc from 'fast-check';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

type Schema = Record<string, unknown>;

/** How deep `$ref`s and nested objects are followed: a recursive schema still yields finite values. */
const MAX_DEPTH = 6;

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Gemini declares OpenAPI-style schemas (`type: "STRING"`, `nullable`): read them as JSON Schema. */
function typesOf(schema: Schema): string[] {
  const raw = schema.type;
  const types = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .filter((t): t is string => typeof t === 'string')
    .map((t) => t.toLowerCase());
  if (schema.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

function resolveRef(ref: string, root: Schema): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isPlainObject(node) ? node[key] : undefined;
  }
  return isPlainObject(node) ? node : undefined;
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.max(minLength, num(schema.maxLength) ?? Math.max(minLength, 12));
  if (typeof schema.pattern === 'string') {
    try {
      return fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length >= minLength && s.length <= maxLength);
    } catch {
      /* a pattern JavaScript cannot compile: fall back to plain strings */
    }
  }
  switch (schema.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'uuid':
      return fc.uuid();
  }
  // Words rather than arbitrary code points: an agent's tool gets something a person could have typed.
  return fc
    .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz '.split('')), minLength, maxLength })
    .map((s) => (s.trim() === '' && minLength > 0 ? 'x'.repeat(minLength) : s));
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  let min = num(schema.minimum) ?? (exclusiveMin !== undefined ? exclusiveMin + (integer ? 1 : 1e-6) : -1000);
  let max = num(schema.maximum) ?? (exclusiveMax !== undefined ? exclusiveMax - (integer ? 1 : 1e-6) : 1000);
  if (schema.exclusiveMinimum === true) min += integer ? 1 : 1e-6;
  if (schema.exclusiveMaximum === true) max -= integer ? 1 : 1e-6;
  if (max < min) max = min;
  const step = num(schema.multipleOf);
  if (step !== undefined && step > 0) {
    const lo = Math.ceil(min / step);
    const hi = Math.max(lo, Math.floor(max / step));
    return fc.integer({ min: lo, max: hi }).map((k) => Number((k * step).toPrecision(12)));
  }
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .map((d) => Math.round(d * 100) / 100)
    .filter((d) => d >= min && d <= max);
}

/**
 * A fast-check arbitrary for values valid against a tool's parameter schema: the subset of JSON
 * Schema (and Gemini's OpenAPI dialect) that tool declarations use. What it cannot honour (a
 * `not`, a pattern JavaScript rejects) it leaves out rather than guess; an empty schema gets `{}`.
 */
export function arbitraryForSchema(schema: unknown, root: unknown = schema, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.constant({});
  if (!isPlainObject(schema)) return fc.constant(null);
  const rootSchema = isPlainObject(root) ? root : schema;
  // Past MAX_DEPTH only what the schema requires is built (optional keys dropped, arrays at their
  // minimum), so a recursive schema ends; a schema that requires infinite depth gets null at 3x.
  if (depth > MAX_DEPTH * 3) return fc.constant(null);
  const shallow = depth > MAX_DEPTH;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(schema.$ref, rootSchema);
    return target ? arbitraryForSchema(target, rootSchema, depth + 1) : fc.constant({});
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    // oneOf wants exactly one match; the first alternative alone is the safe reading for overlapping branches.
    const options = schema.oneOf ? [alternatives[0]] : alternatives;
    return fc.oneof(...options.map((a) => arbitraryForSchema(a, rootSchema, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const merged: Schema = { ...schema, allOf: undefined };
    for (const part of schema.allOf)
      if (isPlainObject(part))
        Object.assign(merged, part, {
          properties: { ...(merged.properties as Schema), ...(part.properties as Schema) },
          required: [...((merged.required as string[]) ?? []), ...((part.required as string[]) ?? [])],
        });
    delete merged.allOf;
    return arbitraryForSchema(merged, rootSchema, depth + 1);
  }
  let types = typesOf(schema);
  if (types.length === 0) types = schema.properties ? ['object'] : schema.items ? ['array'] : ['object'];
  // Prefer a real value to null when the schema allows both: the tool call reads as a plausible one.
  const preferred = types.filter((t) => t !== 'null');
  const type = preferred[0] ?? 'null';
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = shallow ? minLength : Math.max(minLength, num(schema.maxItems) ?? Math.min(3, minLength + 2));
      if (Array.isArray(schema.prefixItems))
        return fc.tuple(...schema.prefixItems.map((s) => arbitraryForSchema(s, rootSchema, depth + 1)));
      const item = arbitraryForSchema(schema.items ?? { type: 'string' }, rootSchema, depth + 1);
      return schema.uniqueItems === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    default: {
      const properties = isPlainObject(schema.properties) ? schema.properties : {};
      const required = new Set(
        Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [],
      );
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties))
        if (!shallow || required.has(key)) model[key] = arbitraryForSchema(sub, rootSchema, depth + 1);
      // A required key the schema does not describe still has to be present.
      for (const key of required) model[key] ??= fc.string({ minLength: 1, maxLength: 8 });
      return fc.record(model, { requiredKeys: [...required] });
    }
  }
}

/** One value for a tool's arguments, the same for the same seed: a run is reproducible. */
export function sampleArguments(schema: unknown, seed: number): unknown {
  return fc.sample(arbitraryForSchema(schema), { seed, numRuns: 1 })[0];
}
