import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/**
 * The members of the Gemini API's `Schema` object (https://ai.google.dev/api/caching#Schema), the OpenAPI subset its
 * `FunctionDeclaration.parameters` takes. The API answers 400 "Invalid JSON payload received. Unknown name ..." for
 * any other member there, `additionalProperties` and `$schema` among them (the reports behind
 * specs/real-world/gemini-*-additional-properties-*.json), while JSON Schema tools carry them routinely.
 */
const GEMINI_SCHEMA_MEMBERS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** Whether a JSON Schema stays inside the Gemini `Schema` subset, at every depth. */
function fitsGeminiSchema(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  return Object.entries(schema).every(([key, value]) => {
    if (!GEMINI_SCHEMA_MEMBERS.has(key)) return false;
    if (key === 'properties')
      return isPlainObject(value) && Object.values(value).every((member) => fitsGeminiSchema(member));
    if (key === 'items') return fitsGeminiSchema(value);
    if (key === 'anyOf') return Array.isArray(value) && value.every((member) => fitsGeminiSchema(member));
    return true;
  });
}

/**
 * A function tool's JSON Schema as a Gemini declaration member: `parameters` when it fits the `Schema` subset, else
 * whole as `parametersJsonSchema`, the member both the Gemini API and Vertex take for full JSON Schema
 * (https://ai.google.dev/api/caching#FunctionDeclaration). Nothing of the tool's schema is dropped either way.
 */
export function geminiFunctionParameters(parameters: unknown): Record<string, unknown> {
  if (parameters === undefined) return {};
  return fitsGeminiSchema(parameters) ? { parameters } : { parametersJsonSchema: parameters };
}
