import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { specsDir } from '../project-root.js';
import { InputError } from './input-error.js';

const addFormats = addFormatsModule as unknown as { default: (ajv: Ajv) => Ajv };

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
addFormats.default(ajv);

const compiled = new Map<string, ValidateFunction>();

let loaded = false;

/** Every schema in specs/schema is registered by its $id, so they can $ref each other. */
function loadAllSchemas(): void {
  if (loaded) return;
  const dir = join(specsDir(), 'schema');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(dir, file), 'utf8')), file);
  }
  loaded = true;
}

/** Compiles (once) a schema from `specs/schema/<name>`. */
export function schemaValidator(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    loadAllSchemas();
    validate = ajv.getSchema(name);
    if (!validate) throw new Error(`no schema specs/schema/${name}`);
    compiled.set(name, validate);
  }
  return validate;
}

/** Compiles a schema given inline (provider request schemas), cached by identity. */
const inline = new WeakMap<object, ValidateFunction>();
export function inlineValidator(schema: object): ValidateFunction {
  let validate = inline.get(schema);
  if (!validate) {
    // Provider schemas are data written by people; keep ajv's strict mode from rejecting harmless keywords.
    validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    inline.set(schema, validate);
  }
  return validate;
}

/**
 * Picks the one ajv error a person should read first: the deepest pointer, and among `anyOf`/`if`
 * noise the concrete keyword (an unexpected property, a wrong enum value).
 */
export function describeSchemaErrors(errors: ErrorObject[]): { pointer: string; problem: string } {
  // A failed anyOf reports each branch's `required`; the branches are the alternatives, so say that.
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  if (anyOf && errors.every((e) => e === anyOf || (e.keyword === 'required' && e.instancePath === anyOf.instancePath))) {
    const options = errors.filter((e) => e.keyword === 'required').map((e) => (e.params as { missingProperty: string }).missingProperty);
    return { pointer: anyOf.instancePath || '/', problem: `must name at least one of ${options.join(', ').replace(/, ([^,]*)$/, ' or $1')}` };
  }
  const noise = new Set(['anyOf', 'oneOf', 'if', 'allOf']);
  const concrete = errors.filter((e) => !noise.has(e.keyword));
  const pool = concrete.length > 0 ? concrete : errors;
  const first = [...pool].sort((a, b) => b.instancePath.length - a.instancePath.length)[0]!;
  let pointer = first.instancePath || '/';
  let problem: string;
  switch (first.keyword) {
    case 'additionalProperties': {
      const extra = (first.params as { additionalProperty: string }).additionalProperty;
      pointer = `${first.instancePath}/${extra}`;
      problem = `unexpected property "${extra}"`;
      break;
    }
    case 'enum':
      problem = `must be one of ${(first.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'required':
      problem = `missing required property "${(first.params as { missingProperty: string }).missingProperty}"`;
      break;
    case 'const':
      problem = `must be ${JSON.stringify((first.params as { allowedValue: unknown }).allowedValue)}`;
      break;
    default:
      problem = first.message ?? first.keyword;
  }
  return { pointer, problem };
}

/** Validates `value` against `specs/schema/<schemaName>` or throws an InputError naming file and pointer. */
export function assertValid<T>(value: unknown, schemaName: string, file: string, hint?: string): T {
  const validate = schemaValidator(schemaName);
  if (!validate(value)) {
    const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
    throw new InputError(file, pointer, problem, hint ?? `see specs/schema/${schemaName}`);
  }
  return value as T;
}
