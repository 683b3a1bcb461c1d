/**
 * Build step (`npm run build`): writes every project schema as one precompiled validator module
 * beside the compiled validate.js, so a CLI run loads validators (~20 ms) instead of compiling them
 * (~0.5 CPU-s of `check`, issue 10's CPU goal). It is an optimisation only: validate.ts uses it when
 * its recorded hash matches the schemas on disk and compiles at run time otherwise (tests run from
 * src/, where no module is written). Uses ajv's own standalone code generator.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { Ajv } from 'ajv';
import { specsDir } from '../project-root.js';
import { INLINE_AJV_OPTIONS, schemaAjv } from './schema-ajv.js';
import { readSchemaSources, type SchemaSources } from './schema-sources.js';

export const PRECOMPILED_FILE = 'schema-validators.precompiled.cjs';
export const PRECOMPILED_INLINE_FILE = 'inline-validators.precompiled.cjs';
/** The folder of one module per schema name (schemaModuleFile): a run loads the validators it uses, no others. */
export const PRECOMPILED_SCHEMA_DIR = 'schema-validators';

/** The file, in PRECOMPILED_SCHEMA_DIR, of the module exporting the validator of one schema name (a pointer may hold `#` and `/`). */
export const schemaModuleFile = (name: string): string => `${encodeURIComponent(name)}.cjs`;

/** The key an inline schema is found by: its JSON text's sha256, so any edit misses and compiles. */
export function inlineSchemaKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * CommonJS source exporting one validator per provider request schema (specs/providers/*.json
 * `request.schema`), keyed by inlineSchemaKey. Options match validate.ts's inline Ajv; a schema
 * naming an $id gets its own instance at run time and is left to it.
 */
export function precompiledInlineCode(providersDir: string = join(specsDir(), 'providers')): string {
  const ajv = new Ajv({ ...INLINE_AJV_OPTIONS, code: { source: true } });
  const refs: Record<string, string> = {};
  for (const file of readdirSync(providersDir).filter((f) => f.endsWith('.json'))) {
    const spec = JSON.parse(readFileSync(join(providersDir, file), 'utf8')) as { request?: { schema?: object } };
    const schema = spec.request?.schema;
    if (!schema || '$id' in schema) continue;
    const key = inlineSchemaKey(JSON.stringify(schema));
    if (refs[key]) continue;
    ajv.addSchema(schema, key);
    refs[key] = key;
  }
  return standaloneCode.default(ajv, refs);
}

/** Whole schemas and each top-level definition (callers validate one history message, one SSE event). */
function schemaNames(sources: SchemaSources): string[] {
  const names: string[] = [];
  for (const { name, schema } of sources.files) {
    names.push(name);
    for (const group of ['definitions', '$defs']) {
      for (const key of Object.keys((schema as Record<string, Record<string, unknown> | undefined>)[group] ?? {}))
        names.push(`${name}#/${group}/${key}`);
    }
  }
  return names;
}

const withHash = (code: string, sources: SchemaSources) =>
  `${code}\nexports.__schemaHash = ${JSON.stringify(sources.hash)};\n`;

/** CommonJS source exporting one validator per schema file name, and the sources' hash. */
export function precompiledSchemaCode(sources: SchemaSources = readSchemaSources()): string {
  const ajv = schemaAjv(sources);
  const refs = Object.fromEntries(schemaNames(sources).map((name) => [name, name]));
  return withHash(standaloneCode.default(ajv, refs), sources);
}

/**
 * The same validators one module per schema name, each with what it refers to and the sources' hash: `check` uses 9
 * of the 104, and the one module of them all (2.2 MB) cost every run its parse, about 50 ms.
 */
export function precompiledSchemaModules(sources: SchemaSources = readSchemaSources()): Map<string, string> {
  const ajv = schemaAjv(sources);
  return new Map(
    schemaNames(sources).map((name) => [
      schemaModuleFile(name),
      withHash(standaloneCode.default(ajv, { [name]: name }), sources),
    ]),
  );
}

/** Writes precompiledSchemaModules into `dir`/PRECOMPILED_SCHEMA_DIR, replacing what was there. */
export function writePrecompiledSchemaModules(dir: string, sources: SchemaSources = readSchemaSources()): void {
  const folder = join(dir, PRECOMPILED_SCHEMA_DIR);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const [file, code] of precompiledSchemaModules(sources)) writeFileSync(join(folder, file), code);
}

/**
 * The inputs' fingerprint: the schema files' hash and every provider spec's request schema. A build whose inputs
 * did not change keeps the modules it wrote last time (the compiled code is a pure function of them), which saves
 * the suite's and the developer loop's ~4 CPU-s per build.
 */
export function precompileInputsHash(
  sources: SchemaSources,
  providersDir: string = join(specsDir(), 'providers'),
): string {
  const hash = createHash('sha256').update(sources.hash);
  for (const file of readdirSync(providersDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const spec = JSON.parse(readFileSync(join(providersDir, file), 'utf8')) as { request?: { schema?: object } };
    hash.update(file).update(JSON.stringify(spec.request?.schema ?? null));
  }
  return hash.digest('hex');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const out = join(here, PRECOMPILED_SCHEMA_DIR);
  const inlineOut = fileURLToPath(new URL(`./${PRECOMPILED_INLINE_FILE}`, import.meta.url));
  const stamp = fileURLToPath(new URL('./precompiled.inputs-hash', import.meta.url));
  const sources = readSchemaSources();
  const inputs = precompileInputsHash(sources);
  const fresh = existsSync(out) && existsSync(inlineOut) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs;
  if (!fresh) {
    // The one module of every schema an earlier build wrote is superseded by the folder.
    rmSync(join(here, PRECOMPILED_FILE), { force: true });
    writePrecompiledSchemaModules(here, sources);
    writeFileSync(inlineOut, precompiledInlineCode());
    writeFileSync(stamp, inputs);
  }
}
