import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv, AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import { InputError } from '../errors/input-error.js';
import { INLINE_AJV_OPTIONS, newAjv, schemaAjv } from './schema-ajv.js';
import { readSchemaSources } from './schema-sources.js';
import { InvariantError } from '../errors/invariant-error.js';
import { requireWithCodeCache } from './cached-require.js';

// Kept in step with precompile-schemas.ts (not imported from there: that module pulls in ajv's code generator).
const SCHEMA_FILE = 'schema-validators.precompiled.cjs';
const SCHEMA_DIR = 'schema-validators';
const schemaModuleFile = (name: string): string => `${encodeURIComponent(name)}.cjs`;
const INLINE_FILE = 'inline-validators.precompiled.cjs';
/**
 * Where precompiled validators are looked for: a folder named by REASONING_REPLAY_VALIDATORS_DIR (the test suite
 * writes them once per run there, as the build does, so its hundreds of files stop compiling the same schemas each),
 * then beside this module (the build's).
 */
const precompiledFile = (name: string): string | undefined =>
  [process.env.REASONING_REPLAY_VALIDATORS_DIR, fileURLToPath(new URL('.', import.meta.url))]
    .filter((dir): dir is string => !!dir)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));

type Lookup = (name: string) => ValidateFunction | undefined;
let lookup: Lookup | undefined;

type PrecompiledModule = Record<string, ValidateFunction> & { __schemaHash?: string };

/**
 * Validators for specs/schema/*: the build's precompiled module of that one schema name (loaded when the name is first
 * asked for, so a run parses only the validators it uses), else the one module of them all (the test suite's), each
 * used only when made from exactly these schema files; else compiled here (tests run from src/, and a user may have
 * edited a schema).
 */
function validators(): Lookup {
  if (lookup) return lookup;
  const sources = readSchemaSources();
  const load = (file: string | undefined): PrecompiledModule | undefined => {
    if (!file) return undefined;
    const mod = requireWithCodeCache(file) as PrecompiledModule;
    return mod.__schemaHash === sources.hash ? mod : undefined;
  };
  let whole: PrecompiledModule | null | undefined;
  let ajv: Ajv | undefined;
  return (lookup = (name) =>
    load(precompiledFile(join(SCHEMA_DIR, schemaModuleFile(name))))?.[name] ??
    (whole === undefined ? (whole = load(precompiledFile(SCHEMA_FILE)) ?? null) : whole)?.[name] ??
    // A pointer the build did not precompile, or schemas edited since: compiled here, from the schemas on disk.
    (ajv ??= schemaAjv(sources)).getSchema(name));
}

const compiled = new Map<string, ValidateFunction>();

/** The validator of `specs/schema/<name>`. */
export function schemaValidator(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    validate = validators()(name);
    if (!validate) throw new InvariantError(`no schema specs/schema/${name}`);
    compiled.set(name, validate);
  }
  return validate;
}

let inlineAjv: Ajv | undefined;
const inline = new WeakMap<object, ValidateFunction>();
const inlineByText = new Map<string, ValidateFunction>();
let precompiledInline: Record<string, ValidateFunction> | null | undefined;

/** The build's validators for the bundled provider schemas, keyed by text hash (an edited schema simply misses). */
function precompiledInlineValidator(text: string): ValidateFunction | undefined {
  if (precompiledInline === undefined) {
    const file = precompiledFile(INLINE_FILE);
    precompiledInline = file ? (requireWithCodeCache(file) as Record<string, ValidateFunction>) : null;
  }
  return precompiledInline?.[createHash('sha256').update(text).digest('hex')];
}

/**
 * Compiles a schema given inline (provider request schemas), cached by identity and by text: the same
 * provider's schema arrives as several objects (specs loaded again, per-model variants), and both an
 * Ajv instance (its meta-schema) and a compile cost milliseconds each, paid per check run.
 */
export function inlineValidator(schema: object): ValidateFunction {
  let validate = inline.get(schema);
  if (!validate) {
    const text = JSON.stringify(schema);
    validate = inlineByText.get(text);
    if (!validate) {
      // A schema naming an $id would clash with another of the same $id in one instance: give it its own.
      validate =
        '$id' in schema
          ? newAjv(INLINE_AJV_OPTIONS).compile(schema as AnySchema)
          : (precompiledInlineValidator(text) ?? (inlineAjv ??= newAjv(INLINE_AJV_OPTIONS)).compile(schema));
      inlineByText.set(text, validate);
    }
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
  if (
    anyOf &&
    errors.every((e) => e === anyOf || (e.keyword === 'required' && e.instancePath === anyOf.instancePath))
  ) {
    const options = errors
      .filter((e) => e.keyword === 'required')
      .map((e) => (e.params as { missingProperty: string }).missingProperty);
    return {
      pointer: anyOf.instancePath || '/',
      problem: `must name at least one of ${options.join(', ').replace(/, ([^,]*)$/, ' or $1')}`,
    };
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

/**
 * Limits every input meets before a schema sees it. Schemas and every later walk (redaction,
 * storage, pricing) recurse; a 100k-deep value passed ajv's `{}` for free-form fields and then
 * overflowed the stack in `sessions import`. Real carriers nest a few levels (Gemini parts, tool
 * arguments); 256 leaves room for any honest payload.
 */
export const INPUT_LIMITS = { maxDepth: 256, maxNodes: 20_000_000, maxStringLength: 64 * 1024 * 1024 } as const;

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

interface Walk {
  value: unknown;
  depth: number;
  key?: string;
  parent?: Walk;
}

/** The value's JSON pointer; a very deep one keeps its first 12 steps (the line must stay readable). */
function pointerOf(entry: Walk): string {
  const keys: string[] = [];
  for (let e: Walk | undefined = entry; e?.key !== undefined; e = e.parent) keys.push(escapePointer(e.key));
  if (keys.length === 0) return '/';
  keys.reverse();
  return keys.length > 12 ? `/${keys.slice(0, 12).join('/')}/…(${keys.length - 12} more levels)` : `/${keys.join('/')}`;
}

type Limits = { maxDepth: number; maxNodes: number; maxStringLength: number };

/** Roots already walked within INPUT_LIMITS (by readJsonFile, then again by assertValid on the same object). */
const withinInputLimits = new WeakSet<object>();

/**
 * Walks without recursion (a deep value must not overflow the stack while being measured), keeping only each value
 * and its depth; the pointer of a breach is found by a second walk (throwLimitBreach).
 */
export function assertWithinLimits(value: unknown, file: string, limits: Limits = INPUT_LIMITS): void {
  const isRoot = typeof value === 'object' && value !== null;
  if (isRoot && limits === INPUT_LIMITS && withinInputLimits.has(value)) return;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let nodes = 0;
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (++nodes > limits.maxNodes) return throwLimitBreach(value, file, limits);
    if (typeof v === 'string') {
      if (v.length > limits.maxStringLength) return throwLimitBreach(value, file, limits);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limits.maxDepth) return throwLimitBreach(value, file, limits);
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        values.push(v[i]);
        depths.push(depth + 1);
      }
    } else {
      const record = v as Record<string, unknown>;
      for (const k of Object.keys(record)) {
        values.push(record[k]);
        depths.push(depth + 1);
      }
    }
  }
  if (isRoot && limits === INPUT_LIMITS) withinInputLimits.add(value);
}

/**
 * The walk that names where a value breaks a limit: the same order as assertWithinLimits' (so it finds the same first
 * breach), keeping each value's parent for its pointer. Only run once a breach is known: a record per value is what
 * made the plain walk cost.
 */
function throwLimitBreach(value: unknown, file: string, limits: Limits): never {
  const stack: Walk[] = [{ value, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const v = entry.value;
    if (++nodes > limits.maxNodes)
      throw new InputError(
        file,
        '',
        `holds more than ${limits.maxNodes} values`,
        'split the input; nothing was stored',
      );
    if (typeof v === 'string') {
      if (v.length > limits.maxStringLength)
        throw new InputError(
          file,
          pointerOf(entry),
          `a string of ${v.length} characters is over the limit of ${limits.maxStringLength}`,
          'inputs this large are refused before anything is stored',
        );
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (entry.depth >= limits.maxDepth) {
      throw new InputError(
        file,
        pointerOf(entry),
        `nests deeper than ${limits.maxDepth} levels`,
        'no provider payload nests this deep; the value is refused before validation',
      );
    }
    const depth = entry.depth + 1;
    if (Array.isArray(v))
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, key: String(i), parent: entry });
    else for (const [k, x] of Object.entries(v)) stack.push({ value: x, depth, key: k, parent: entry });
  }
  throw new InvariantError('assertWithinLimits found a breach that the pointer walk did not');
}

/** Validates `value` against `specs/schema/<schemaName>` or throws an InputError naming file and pointer. */
export function assertValid<T>(value: unknown, schemaName: string, file: string, hint?: string): T {
  assertWithinLimits(value, file);
  const validate = schemaValidator(schemaName);
  let valid: boolean;
  try {
    valid = validate(value) as boolean;
  } catch (error) {
    // ajv's uniqueItems compares items with fast-deep-equal, which calls an object's own toString or
    // valueOf: a key of that name holding data throws. That is the input's shape, not a harness bug.
    if (!(error instanceof TypeError)) throw error;
    throw new InputError(
      file,
      '',
      `holds an object the schema cannot compare (${error.message}): a "toString" or "valueOf" key in a list that must not repeat?`,
      hint ?? `see specs/schema/${schemaName}`,
    );
  }
  if (!valid) {
    const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
    throw new InputError(file, pointer, problem, hint ?? `see specs/schema/${schemaName}`);
  }
  return value as T;
}
