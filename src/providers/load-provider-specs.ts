import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../input/input-error.js';
import { readJsonFile } from '../input/read-json.js';
import { assertValid } from '../input/validate.js';
import { specsDir } from '../project-root.js';
import type { ProviderSpec } from './provider-spec.js';

export function defaultProvidersDir(): string {
  return join(specsDir(), 'providers');
}

/** Checks one spec beyond its schema: every rejection it refers to exists, and its id is its file name. */
export function checkProviderSpec(value: unknown, file: string): ProviderSpec {
  const spec = assertValid<ProviderSpec>(value, 'provider.schema.json', file);
  const refs: Array<[string, string | undefined]> = [
    ['/request/unknownFieldRejection', spec.request.unknownFieldRejection],
    ['/request/unknownTopLevelRejection', spec.request.unknownTopLevelRejection],
    ['/request/invalidRejection', spec.request.invalidRejection],
    ...spec.echo.map((e, i): [string, string | undefined] => [`/echo/${i}/rejection`, e.rejection]),
  ];
  for (const [pointer, id] of refs) {
    if (id !== undefined && !(id in spec.rejections)) {
      throw new InputError(file, pointer, `names rejection "${id}", which is not defined`, `define it under /rejections or use one of: ${Object.keys(spec.rejections).join(', ')}`);
    }
  }
  const base = file.split(/[\\/]/).at(-1)?.replace(/\.json$/, '');
  if (base !== undefined && base !== spec.id) {
    throw new InputError(file, '/id', `id "${spec.id}" differs from the file name "${base}"`, 'name the file <id>.json');
  }
  return spec;
}

export function loadProviderSpec(file: string): ProviderSpec {
  return checkProviderSpec(readJsonFile(file), file);
}

/** Every spec in the directory, sorted by id. */
export function loadProviderSpecs(dir: string = defaultProvidersDir()): ProviderSpec[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => loadProviderSpec(join(dir, f)))
    .sort((a, b) => a.id.localeCompare(b.id));
}
