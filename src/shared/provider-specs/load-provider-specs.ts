import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors/input-error.js';
import { readJsonFile } from '../validation/read-json.js';
import { assertValid } from '../validation/validate.js';
import { specsDir } from '../project-root.js';
import { lintProviderSpec, lintProviderSpecSet } from './lint-provider-spec.js';
import type { ProviderSpec } from './provider-spec.js';
import { registerProviderSpecs } from './spec-registry.js';

export function defaultProvidersDir(): string {
  return join(specsDir(), 'providers');
}

/**
 * Checks one spec beyond its schema (the spec lint: sources, references, placeholders) and that its id is its file
 * name.
 */
export function checkProviderSpec(value: unknown, file: string): ProviderSpec {
  const spec = assertValid<ProviderSpec>(value, 'provider.schema.json', file);
  const [first] = lintProviderSpec(spec);
  if (first) throw new InputError(file, first.pointer, first.problem, first.hint);
  const base = file
    .split(/[\\/]/)
    .at(-1)
    ?.replace(/\.json$/, '');
  if (base !== undefined && base !== spec.id) {
    throw new InputError(
      file,
      '/id',
      `id "${spec.id}" differs from the file name "${base}"`,
      'name the file <id>.json',
    );
  }
  return spec;
}

export function loadProviderSpec(file: string): ProviderSpec {
  return checkProviderSpec(readJsonFile(file, { refuseDuplicateKeys: true }), file);
}

/** Every spec in the directory, sorted by id. */
export function loadProviderSpecs(dir: string = defaultProvidersDir()): ProviderSpec[] {
  const specs = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => loadProviderSpec(join(dir, f)))
    .sort((a, b) => a.id.localeCompare(b.id));
  const [first] = lintProviderSpecSet(specs);
  if (first) throw new InputError(join(dir, `${first.id}.json`), first.pointer, first.problem, first.hint);
  // Gateways consult their upstreams' specs when judging a request.
  registerProviderSpecs(specs);
  return specs;
}
