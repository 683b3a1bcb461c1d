import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, Options } from 'ajv';
import type { SchemaSources } from './schema-sources.js';

// ajv's compiler is required when a schema is first compiled, not at start-up: a run whose
// validators are all precompiled (decision 0031) never needs it, and loading it costs tens of ms.
const requireCjs = createRequire(import.meta.url);

/** A new Ajv instance, its module loaded on first use. */
export function newAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = requireCjs('ajv') as typeof AjvModule;
  return new AjvClass(options);
}

/** Provider request schemas are data written by people; keep ajv's strict mode from rejecting harmless keywords. */
export const INLINE_AJV_OPTIONS = { allErrors: true, strict: false } as const;

/**
 * The one Ajv configuration for the project's own schemas, shared by runtime compilation and the
 * build-time precompiler so both produce the same validators (same options, same errors). `source`
 * keeps each validator's code for standalone output; formats are referenced, not inlined, so the
 * precompiled module requires ajv-formats' own definitions.
 */
export function schemaAjv(sources: SchemaSources): Ajv {
  const { _ } = requireCjs('ajv') as typeof AjvModule;
  const addFormats = requireCjs('ajv-formats') as { default: (ajv: Ajv) => Ajv };
  const ajv = newAjv({
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
