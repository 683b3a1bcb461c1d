import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectRoot } from '../project-root.js';
import { PRECOMPILED_SCHEMA_DIR, schemaModuleFile } from './precompile-schemas.js';
import { readSchemaSources } from './schema-sources.js';

/**
 * validate.ts takes a schema's validator from its own precompiled module, found by name and trusted only when made
 * from the schema files on disk. A stand-in module whose validator accepts everything tells which one answered.
 */
const before = process.env.REASONING_REPLAY_VALIDATORS_DIR;
const dirs: string[] = [];
afterEach(() => {
  process.env.REASONING_REPLAY_VALIDATORS_DIR = before;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.resetModules();
});

async function validatorWith(hash: string, name: string) {
  const cache = join(projectRoot(), 'node_modules', '.cache', 'reasoning-replay');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'validate-test-'));
  dirs.push(dir);
  mkdirSync(join(dir, PRECOMPILED_SCHEMA_DIR));
  writeFileSync(
    join(dir, PRECOMPILED_SCHEMA_DIR, schemaModuleFile(name)),
    // It also names another schema, as a module of many would: only the file of that name may answer for it.
    `exports[${JSON.stringify(name)}] = exports['scenario.schema.json'] = function acceptsAll() { return true; };\n` +
      `exports.__schemaHash = ${JSON.stringify(hash)};\n`,
  );
  process.env.REASONING_REPLAY_VALIDATORS_DIR = dir;
  vi.resetModules();
  const { schemaValidator } = await import('./validate.js');
  return schemaValidator(name);
}

describe('schemaValidator and the precompiled modules', () => {
  it('loads the module of the name asked for when it was made from these schemas', async () => {
    const validate = await validatorWith(readSchemaSources().hash, 'routes.schema.json');
    expect(validate.name).toBe('acceptsAll');
  });

  it('leaves a module made from other schemas and compiles from the files on disk', async () => {
    const validate = await validatorWith(`${readSchemaSources().hash}-stale`, 'routes.schema.json');
    expect(validate.name).not.toBe('acceptsAll');
    expect(validate({ not: 'a route table' })).toBe(false);
  });

  it('keeps each name’s own validator: a module for one name answers for no other', async () => {
    await validatorWith(readSchemaSources().hash, 'routes.schema.json');
    const { schemaValidator } = await import('./validate.js');
    expect(schemaValidator('scenario.schema.json').name).not.toBe('acceptsAll');
    expect(schemaValidator('scenario.schema.json')({})).toBe(false);
  });
});
