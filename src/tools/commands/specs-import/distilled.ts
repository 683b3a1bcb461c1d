import { createHash } from 'node:crypto';
import { DefinitionImportError } from '../../../shared/errors/definition-import-error.js';

/** A JSON Schema object as the importer reads and writes it. */
export type JsonSchema = Record<string, unknown>;

/** The formats of published API definitions the importer reads (specs/definitions.json `format`). */
export type DefinitionFormat = 'openapi' | 'discovery' | 'smithy' | 'proto' | 'typescript-sdk';

/**
 * A provider's definition reduced to structure: one JSON Schema per named type it declares (only the
 * types an imported operation reaches), structural keywords only (types, members, required, enums,
 * bounds), no descriptions. Each def names the place in the source it came from (`x-source`).
 * Committed under specs/definitions/<id>.distilled.json, so the specs can be rebuilt and compared
 * without the providers' documents.
 */
export interface Distilled {
  definition: string;
  format: DefinitionFormat;
  /** sha256 of the source files read, the same as the pin's. */
  sourceSha256: string;
  /** Operation name (as the pin names it) -> the defs of its request body, its answer and its stream events. */
  operations: Record<string, DistilledOperation>;
  defs: Record<string, JsonSchema>;
}

/**
 * One operation's roots in the defs: the request body, and where the pin asks for them the answer body
 * (`response`) and one event of its stream (`events`, usually a union of every event kind).
 */
export interface DistilledOperation {
  request: string;
  response?: string;
  events?: string;
}

/** Every root def of the operations: their requests, answers and stream events. */
export function operationRoots(operations: Record<string, DistilledOperation>): string[] {
  return Object.values(operations).flatMap((o) => [
    o.request,
    ...(o.response !== undefined ? [o.response] : []),
    ...(o.events !== undefined ? [o.events] : []),
  ]);
}

/** Where a def reference points: `#/$defs/<name>`. */
export const DEF_PREFIX = '#/$defs/';
export const defRef = (name: string): JsonSchema => ({ $ref: `${DEF_PREFIX}${name}` });

/** Deterministic JSON: object keys in insertion order are kept, so hashing the same build gives the same hash. */
export function sha256Json(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export function sha256Text(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The names of the defs `schema` refers to, directly. */
export function refsIn(schema: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => refsIn(s, out));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(DEF_PREFIX))
        out.add(value.slice(DEF_PREFIX.length));
      else refsIn(value, out);
    }
  }
  return out;
}

/** Every def reachable from `roots`, in a stable order (sorted by name). */
export function closure(defs: Record<string, JsonSchema>, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    const def = defs[name];
    if (!def) throw new DefinitionImportError(`the definition has no type "${name}"`);
    seen.add(name);
    queue.push(...refsIn(def));
  }
  return [...seen].sort();
}

/** Calls `visit` on `schema` and on every subschema in it (members, items, branches), never on a `properties` map itself. */
export function forEachSchema(schema: unknown, visit: (node: JsonSchema) => void): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as JsonSchema;
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs')
      for (const member of Object.values(value as Record<string, unknown>)) forEachSchema(member, visit);
    else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else'].includes(key)) forEachSchema(value, visit);
    else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(value))
      value.forEach((v) => forEachSchema(v, visit));
  }
}

/** The defs the operations' requests, answers and events reach, each under its name: what a distilled form keeps. */
export function operationDefs(
  defs: Record<string, JsonSchema>,
  operations: Record<string, DistilledOperation>,
): Record<string, JsonSchema> {
  const names = closure(defs, operationRoots(operations));
  return Object.fromEntries(names.map((n) => [n, defs[n]!]));
}
