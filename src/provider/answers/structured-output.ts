import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { FamilyId } from '../../shared/wire/families.js';

/**
 * The output format a request asks the model for: JSON that satisfies a schema, any JSON object, or (Gemini's
 * `text/x.enum`) one value of an enum, as bare text.
 */
export type RequestedFormat =
  { kind: 'json-schema'; schema: unknown } | { kind: 'json-object' } | { kind: 'enum'; schema: unknown };

const object = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

/** OpenAI's shape, shared by Chat Completions (`response_format`) and Responses (`text.format`). */
function openAiFormat(format: Record<string, unknown>, schemaAt: Record<string, unknown>): RequestedFormat | undefined {
  if (format.type === 'json_object') return { kind: 'json-object' };
  if (format.type !== 'json_schema') return undefined;
  return schemaAt.schema === undefined ? { kind: 'json-object' } : { kind: 'json-schema', schema: schemaAt.schema };
}

/** Bedrock's JSON Schema travels as a string (Converse `outputConfig.textFormat.structure.jsonSchema.schema`). */
function parsedSchema(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What output format a request body asks for, read the way each family's API reads it:
 * - Chat Completions: `response_format` `{type: "json_schema", json_schema: {schema}}` or `{type: "json_object"}`;
 * - Responses: `text.format` `{type: "json_schema", schema}` or `{type: "json_object"}`;
 * - Gemini: `generationConfig.responseJsonSchema` or `responseSchema` (with `responseMimeType` application/json),
 *   or `responseMimeType` application/json alone; `text/x.enum` answers one enum value;
 * - Anthropic: `output_config.format` (GA) or `output_format` (the structured-outputs-2025-11-13 beta),
 *   `{type: "json_schema", schema}`;
 * - Bedrock Converse: `outputConfig.textFormat` `{type: "json_schema", structure: {jsonSchema: {schema: "<JSON>"}}}`.
 * Undefined when the request asks for plain text.
 */
export function requestedFormat(family: FamilyId, body: unknown): RequestedFormat | undefined {
  const b = object(body);
  switch (family) {
    case 'openai-chat':
    case 'copilot': {
      const format = object(b.response_format);
      return openAiFormat(format, object(format.json_schema));
    }
    case 'openai-responses': {
      const format = object(object(b.text).format);
      return openAiFormat(format, format);
    }
    case 'gemini': {
      const config = object(b.generationConfig ?? b.generation_config);
      const schema =
        config.responseJsonSchema ??
        config.response_json_schema ??
        config._responseJsonSchema ??
        config.responseSchema ??
        config.response_schema;
      const mime = config.responseMimeType ?? config.response_mime_type;
      if (mime === 'text/x.enum' && schema !== undefined) return { kind: 'enum', schema };
      if (schema !== undefined) return { kind: 'json-schema', schema };
      return mime === 'application/json' ? { kind: 'json-object' } : undefined;
    }
    case 'anthropic-messages': {
      const format = object(object(b.output_config).format ?? b.output_format);
      return format.type === 'json_schema' && format.schema !== undefined
        ? { kind: 'json-schema', schema: format.schema }
        : undefined;
    }
    case 'bedrock-converse': {
      const format = object(object(b.outputConfig).textFormat);
      const schema = parsedSchema(object(object(format.structure).jsonSchema).schema);
      return format.type === 'json_schema' && schema !== undefined ? { kind: 'json-schema', schema } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The answer text for a requested format, given a value generated from its schema (`sample`, for json-schema and
 * enum): JSON text, or the bare enum value. A json-object request gets an object holding `fallback`.
 */
export function formattedContent(format: RequestedFormat, sample: unknown, fallback: string): string {
  switch (format.kind) {
    case 'json-schema':
      return JSON.stringify(sample);
    case 'enum':
      return typeof sample === 'string' ? sample : JSON.stringify(sample);
    case 'json-object':
      return JSON.stringify({ answer: fallback });
  }
}
