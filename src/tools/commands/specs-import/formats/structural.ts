import type { JsonSchema } from '../distilled.js';

/**
 * The JSON Schema keywords that say what a request may hold. Everything else a definition carries
 * (descriptions, titles, examples, defaults, vendor `x-` extensions, formats) is prose or tooling
 * and is dropped, so no provider text reaches a spec.
 */
export const STRUCTURAL_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'pattern',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  '$ref',
]);

/** A pattern ajv can compile (it uses the `u` flag); a definition's pattern in another regex dialect is dropped. */
export function usablePattern(pattern: unknown): pattern is string {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** `schema` allows null too (OpenAPI 3.0 `nullable`, a Smithy/proto member that may be null). */
export function withNull(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  const out: JsonSchema = { ...schema };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...(schema.enum as unknown[]), null];
  if (typeof type === 'string') out.type = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type)) out.type = type.includes('null') ? type : [...type, 'null'];
  else if (!Array.isArray(schema.enum)) return { anyOf: [schema, { type: 'null' }] };
  return out;
}
