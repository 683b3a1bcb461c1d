import { Ajv, _ } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { SchemaSources } from './schema-sources.js';

const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

/** Provider request schemas are data written by people; keep ajv's strict mode from rejecting harmless keywords. */
export const INLINE_AJV_OPTIONS = { allErrors: true, strict: false } as const;

/**
 * The one Ajv configuration for the project's own schemas, shared by runtime compilation and the
 * build-time precompiler so both produce the same validators (same options, same errors). `source`
 * keeps each validator's code for standalone output; formats are referenced, not inlined, so the
 * precompiled module requires ajv-formats' own definitions.
 */
export function schemaAjv(sources: SchemaSources): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    allowUnionTypes: true,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats.default(ajv);
  // Every schema is registered by its file name, so they can $ref each other.
  for (const { name, schema } of sources.files) ajv.addSchema(schema, name);
  return ajv;
}
