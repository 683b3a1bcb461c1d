import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors/input-error.js';
import { readJsonFile } from '../validation/read-json.js';
import { assertValid } from '../validation/validate.js';
import { specsDir } from '../project-root.js';
import type { Scenario } from './scenario.js';

export function defaultScenariosDir(): string {
  return join(specsDir(), 'scenarios');
}

export function checkScenario(value: unknown, file: string): Scenario {
  const scenario = assertValid<Scenario>(value, 'scenario.schema.json', file);
  const base = file
    .split(/[\\/]/)
    .at(-1)
    ?.replace(/\.json$/, '');
  if (base !== undefined && base !== scenario.id) {
    throw new InputError(
      file,
      '/id',
      `id "${scenario.id}" differs from the file name "${base}"`,
      'name the file <id>.json',
    );
  }
  if (!scenario.steps.some((s) => 'call' in s)) {
    throw new InputError(
      file,
      '/steps',
      'has no call step, so nothing is ever sent',
      'add {"call": {"answer": {...}}}',
    );
  }
  return scenario;
}

export function loadScenarios(dir: string = defaultScenariosDir()): Scenario[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => checkScenario(readJsonFile(join(dir, f)), join(dir, f)));
}
