import { isPlainObject } from '../../shared/objects/deep-merge.js';

type Schema = Record<string, unknown>;

/** How one step of an instance path was taken: a declared member, a map entry, or an array item. */
export interface PathStep {
  segment: string;
  kind: 'member' | 'entry' | 'item';
  /** A map entry's position among the map's keys (Google names entries `properties[1].value`). */
  entryIndex?: number;
}

/** Whether `sample` meets an `if` the importer writes: tag values (`properties.x.enum`/`const`), `required`, `not`. */
function meets(condition: unknown, sample: Record<string, unknown>): boolean {
  if (!isPlainObject(condition)) return true;
  if (condition.not !== undefined) return !meets(condition.not, sample);
  for (const key of (condition.required as string[] | undefined) ?? []) if (!(key in sample)) return false;
  for (const [key, rule] of Object.entries((condition.properties as Record<string, unknown> | undefined) ?? {})) {
    if (!(key in sample) || !isPlainObject(rule)) continue;
    if (Array.isArray(rule.enum) && !rule.enum.includes(sample[key])) return false;
    if ('const' in rule && rule.const !== sample[key]) return false;
  }
  return true;
}

/**
 * The subschemas that apply at `schema` itself: through `$ref`, `allOf`, `anyOf` and `then`, a few
 * levels deep; with a `sample`, only the `then` branches whose `if` it meets.
 */
export function applicableSchemas(
  root: Schema,
  schema: unknown,
  sample?: Record<string, unknown>,
  depth = 0,
  out: Schema[] = [],
): Schema[] {
  if (!isPlainObject(schema) || depth > 8 || out.includes(schema)) return out;
  out.push(schema);
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/'))
    applicableSchemas(
      root,
      (root.$defs as Record<string, unknown> | undefined)?.[schema.$ref.slice(8)],
      sample,
      depth + 1,
      out,
    );
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(schema[key]))
      for (const s of schema[key] as unknown[]) applicableSchemas(root, s, sample, depth + 1, out);
  if (schema.then && (!sample || meets(schema.if, sample)))
    applicableSchemas(root, schema.then, sample, depth + 1, out);
  return out;
}
const applicable = (root: Schema, schema: unknown) => applicableSchemas(root, schema);

/**
 * What the request schema says of an object at `path` (`['messages', '[]']`) that looks like
 * `sample` (`{role: 'assistant'}`, picking the tagged branch): the members it declares, and
 * whether it refuses others. Readers of specs that ask "does it take key X here?" use this instead
 * of reading `properties` by hand, which misses members behind `$ref`, `allOf` and tagged unions.
 */
export function objectView(
  root: Schema,
  path: readonly string[],
  sample: Record<string, unknown> = {},
): { properties: Record<string, unknown>; closed: boolean } {
  let here = applicableSchemas(root, root);
  for (const step of path) {
    const next: unknown[] = [];
    for (const s of here) {
      if (step === '[]' && isPlainObject(s.items)) next.push(s.items);
      const member = (s.properties as Record<string, unknown> | undefined)?.[step];
      if (step !== '[]' && member !== undefined) next.push(member);
    }
    here = next.flatMap((s) => applicableSchemas(root, s, sample));
  }
  const properties: Record<string, unknown> = {};
  for (const s of here) Object.assign(properties, (s.properties as Record<string, unknown> | undefined) ?? {});
  // Closed when a schema that lists members (not a union's tag wrapper) refuses the rest.
  const closed = here.some((s) => s.additionalProperties === false);
  return { properties, closed };
}

/**
 * Follows a JSON pointer from the body through the request schema, saying for each step whether
 * it is a member the schema declares or an entry of a map, and which `x-source` was last passed:
 * the def the failing value belongs to. Best effort: a step no subschema explains ends the walk.
 */
export function walkSchema(
  root: Schema,
  body: unknown,
  instancePath: string,
): { steps: PathStep[]; source?: string; leaf: Schema[] } {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const steps: PathStep[] = [];
  let here = applicable(root, root);
  let value = body;
  let source = here.map((s) => s['x-source']).findLast((s): s is string => typeof s === 'string');
  for (const segment of segments) {
    const next: unknown[] = [];
    let kind: PathStep['kind'] | undefined;
    if (Array.isArray(value)) {
      kind = 'item';
      for (const s of here) if (isPlainObject(s.items)) next.push(s.items);
    } else {
      for (const s of here) {
        const member = (s.properties as Record<string, unknown> | undefined)?.[segment];
        if (member !== undefined) {
          kind = 'member';
          next.push(member);
        }
      }
      if (!kind)
        for (const s of here)
          if (isPlainObject(s.additionalProperties)) {
            kind = 'entry';
            next.push(s.additionalProperties);
          }
    }
    if (!kind) break;
    const step: PathStep = { segment, kind };
    if (kind === 'entry' && isPlainObject(value)) step.entryIndex = Object.keys(value).indexOf(segment);
    steps.push(step);
    here = next.flatMap((s) => applicable(root, s));
    source = here.map((s) => s['x-source']).findLast((s): s is string => typeof s === 'string') ?? source;
    value = Array.isArray(value) ? value[Number(segment)] : isPlainObject(value) ? value[segment] : undefined;
  }
  return { steps, ...(source ? { source } : {}), leaf: here };
}

/** `thinkingConfig` -> `thinking_config`. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The path as Google's proto JSON parser names it in errors: field names in snake_case, items as
 * `[i]`, map entries as `[i].value` (`tools[0].function_declarations[1].parameters.properties[1].value.type`).
 */
export function googlePath(steps: readonly PathStep[]): string {
  let out = '';
  for (const step of steps) {
    if (step.kind === 'item') out += `[${step.segment}]`;
    else if (step.kind === 'entry') out += `[${step.entryIndex ?? 0}].value`;
    else out += `${out ? '.' : ''}${snake(step.segment)}`;
  }
  return out;
}
