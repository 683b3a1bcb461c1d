import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot, specsDir } from '../project-root.js';
import {
  inlineSchemaKey,
  precompileInputsHash,
  precompiledInlineCode,
  precompiledSchemaCode,
  precompiledSchemaModules,
  schemaModuleFile,
} from './precompile-schemas.js';
import { INLINE_AJV_OPTIONS, schemaAjv } from './schema-ajv.js';
import { readSchemaSources } from './schema-sources.js';

/**
 * The build's precompiled validators must be the runtime ones in another form: same verdict, same
 * errors (the CLI's messages and JSON pointers are built from them). Each is held against the
 * runtime compile on every bundled document of its kind and on broken copies of them.
 */
const cacheDir = join(projectRoot(), 'node_modules', '.cache', 'precompile-schemas-test');
const written: string[] = [];
// Each run's modules are its own (named by pid): removed after the file, or every run would leave megabytes behind.
afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});
function load(code: string, name: string): Record<string, ValidateFunction> & { __schemaHash?: string } {
  mkdirSync(cacheDir, { recursive: true });
  const file = join(cacheDir, `${name}-${process.pid}.cjs`);
  written.push(file);
  writeFileSync(file, code);
  return createRequire(import.meta.url)(file) as Record<string, ValidateFunction>;
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;
const jsonIn = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .map((f) => json(join(dir, f)));

/** A document, and copies broken the ways people break them: a stray key, a missing key, a wrong type. */
function withBrokenCopies(docs: unknown[]): unknown[] {
  const out: unknown[] = [null, [1, 2, 3], {}, 'text'];
  for (const doc of docs) {
    out.push(doc);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) continue;
    const keys = Object.keys(doc);
    out.push({ ...doc, unexpected_key: true });
    if (keys[0]) out.push(Object.fromEntries(Object.entries(doc).slice(1)));
    if (keys[1]) out.push({ ...doc, [keys[1]]: 42 });
  }
  return out;
}

function expectSameVerdicts(precompiled: ValidateFunction, runtime: ValidateFunction, docs: unknown[]): number {
  let invalid = 0;
  for (const doc of docs) {
    const ok = runtime(doc);
    expect(precompiled(doc)).toBe(ok);
    expect(precompiled.errors ?? null).toEqual(runtime.errors ?? null);
    if (!ok) invalid++;
  }
  return invalid;
}

describe('precompiled project schemas', () => {
  const sources = readSchemaSources();
  const mod = load(precompiledSchemaCode(sources), 'schemas');
  const runtime = schemaAjv(sources);
  const bundled: Record<string, unknown[]> = {
    'routes.schema.json': [json(join(specsDir(), 'routes.json'))],
    'provider.schema.json': jsonIn(join(specsDir(), 'providers')),
    'scenario.schema.json': jsonIn(join(specsDir(), 'scenarios')),
    'real-world-case.schema.json': jsonIn(join(specsDir(), 'real-world')),
    'fixture.schema.json': jsonIn(join(projectRoot(), 'fixtures', 'providers')).slice(0, 40),
    'unknown-field-phrasings.schema.json': [json(join(specsDir(), 'unknown-field-phrasings.json'))],
    'sdk-base-urls.schema.json': [json(join(specsDir(), 'sdk-base-urls.json'))],
    'frameworks.schema.json': [json(join(specsDir(), 'frameworks.json'))],
  };

  it('records the hash of the schema files it was made from', () => {
    expect(mod.__schemaHash).toBe(sources.hash);
  });

  it.each(Object.keys(bundled))('%s: same verdict and errors as the runtime compile', (name) => {
    const invalid = expectSameVerdicts(mod[name]!, runtime.getSchema(name)!, withBrokenCopies(bundled[name]!));
    expect(invalid, 'the broken copies must exercise the error path').toBeGreaterThan(3);
  });

  it('exports each top-level definition, as callers validate one history message', () => {
    const message = 'history.schema.json#/definitions/message';
    const docs = withBrokenCopies([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, reasoning_content: 'r' },
    ]);
    expect(expectSameVerdicts(mod[message]!, runtime.getSchema(message)!, docs)).toBeGreaterThan(0);
  });
});

describe('precompiled project schemas, one module per name', () => {
  const sources = readSchemaSources();
  const modules = precompiledSchemaModules(sources);
  const runtime = schemaAjv(sources);
  const docs = withBrokenCopies([
    json(join(specsDir(), 'routes.json')),
    ...jsonIn(join(specsDir(), 'scenarios')).slice(0, 5),
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: null, reasoning_content: 'r' },
  ]);

  it('holds every name the module of them all exports, each in its own file, with the hash', () => {
    const whole = load(precompiledSchemaCode(sources), 'whole');
    const names = Object.keys(whole).filter((k) => k !== '__schemaHash');
    expect([...modules.keys()].sort()).toEqual(names.map(schemaModuleFile).sort());
    for (const name of ['routes.schema.json', 'history.schema.json#/definitions/message']) {
      const mod = load(modules.get(schemaModuleFile(name))!, `one-${encodeURIComponent(name)}`);
      expect(mod.__schemaHash).toBe(sources.hash);
      expectSameVerdicts(mod[name]!, runtime.getSchema(name)!, docs);
    }
  });

  it('names each file apart, pointers included', () => {
    expect(schemaModuleFile('history.schema.json#/definitions/message')).not.toBe(
      schemaModuleFile('history.schema.json#/definitions/messages'),
    );
    expect(schemaModuleFile('history.schema.json#/definitions/message')).not.toMatch(/[#/]/);
  });
});

describe('precompiled provider request schemas', () => {
  const mod = load(precompiledInlineCode(), 'inline');
  const specs = jsonIn(join(specsDir(), 'providers')) as { request: { schema: object } }[];

  it('hold every bundled request schema, keyed by its text, with the runtime verdicts', () => {
    const runtime = new Ajv(INLINE_AJV_OPTIONS);
    const bodies = withBrokenCopies([
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    ]);
    for (const spec of specs) {
      if ('$id' in spec.request.schema) continue;
      const precompiled = mod[inlineSchemaKey(JSON.stringify(spec.request.schema))];
      expect(precompiled).toBeTypeOf('function');
      expectSameVerdicts(precompiled!, runtime.compile(spec.request.schema), bodies);
    }
  });

  it('miss a schema edited after the build, so it is compiled from what is on disk', () => {
    const edited = { ...specs[0]!.request.schema, description: 'edited' };
    expect(mod[inlineSchemaKey(JSON.stringify(edited))]).toBeUndefined();
  });
});

describe('schema sources', () => {
  it('hash changes with any schema file, so a stale precompiled module is never used', () => {
    const dir = join(cacheDir, `sources-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.schema.json'), '{"type":"object"}');
    const before = readSchemaSources(dir).hash;
    writeFileSync(join(dir, 'a.schema.json'), '{"type":"array"}');
    expect(readSchemaSources(dir).hash).not.toBe(before);
  });
});

describe('precompileInputsHash (the build skips precompiling when it is unchanged)', () => {
  const sources = readSchemaSources();
  const providers = join(cacheDir, `providers-${process.pid}`);
  afterAll(() => rmSync(providers, { recursive: true, force: true }));
  const write = (schema: object | undefined) => {
    mkdirSync(providers, { recursive: true });
    writeFileSync(join(providers, 'p.json'), JSON.stringify({ id: 'p', ...(schema ? { request: { schema } } : {}) }));
  };

  it('is stable for the same inputs and moves when a request schema or the schema files change', () => {
    write({ type: 'object' });
    const first = precompileInputsHash(sources, providers);
    expect(precompileInputsHash(sources, providers)).toBe(first);
    write({ type: 'object', required: ['model'] });
    expect(precompileInputsHash(sources, providers)).not.toBe(first);
    expect(precompileInputsHash({ ...sources, hash: `${sources.hash}x` }, providers)).not.toBe(
      precompileInputsHash(sources, providers),
    );
  });
});
