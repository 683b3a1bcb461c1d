import { join } from 'node:path';
import { InputError } from '../errors/input-error.js';
import { parseJson, readJsonFile } from '../validation/read-json.js';
import { assertValid } from '../validation/validate.js';
import { specsDir } from '../project-root.js';
import { lintRouteTable } from './lint-route-table.js';
import type { RouteTable } from './route-table.js';

export function defaultRoutesFile(): string {
  return join(specsDir(), 'routes.json');
}

/** Validates a parsed table (schema, then lint) or throws the first problem as an InputError. */
export function checkRouteTable(value: unknown, file: string): RouteTable {
  const table = assertValid<RouteTable>(value, 'routes.schema.json', file);
  const [problem] = lintRouteTable(table);
  if (problem) throw new InputError(file, problem.pointer, problem.problem, problem.hint);
  return table;
}

export function loadRouteTable(file: string = defaultRoutesFile()): RouteTable {
  return checkRouteTable(readJsonFile(file, { refuseDuplicateKeys: true }), file);
}

/** For tables that do not live in a file of their own (a git ref's blob). */
export function parseRouteTable(text: string, label: string): RouteTable {
  return checkRouteTable(parseJson(text, label), label);
}
