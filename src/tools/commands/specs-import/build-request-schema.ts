import { closure, DEF_PREFIX, refsIn, type JsonSchema } from './distilled.js';

/**
 * Turns a distilled definition into the schema a mock judges by, keeping what the definition says
 * and changing only its form where ajv's errors would otherwise name the wrong thing:
 * - `allOf` of object parts becomes one object (closing each part would refuse the others' members);
 * - `oneOf` becomes `anyOf` (definitions use oneOf for unions whose branches overlap);
 * - a union of objects told apart by one member (`type`, `role`) becomes `if`/`then` on that member,
 *   so a body is judged only by the branch its tag names (an unknown key is reported once, by it);
 * - with `closed`, every object that lists its members refuses others (`additionalProperties: false`).
 * The root def is inlined at the top and the rest kept under `$defs`.
 */
export function buildRequestSchema(
  defs: Record<string, JsonSchema>,
  root: string,
  options: { closed: boolean; open?: readonly string[] },
): JsonSchema {
  const work: Record<string, JsonSchema> = structuredClone(
    Object.fromEntries(closure(defs, [root]).map((n) => [n, defs[n]!])),
  );
  // References resolve to the defs as distilled, never as already transformed: the result must not depend on order.
  const original: Record<string, JsonSchema> = structuredClone(work);
  const resolve = (schema: JsonSchema): JsonSchema => {
    let at = schema;
    const seen = new Set<string>();
    // `{"type": "object", "$ref": ...}` (OpenAPI 3.1 writes both) is the referenced def.
    while (typeof at.$ref === 'string' && Object.keys(at).every((k) => k === '$ref' || k === 'type')) {
      const name = at.$ref.slice(DEF_PREFIX.length);
      if (seen.has(name)) break;
      seen.add(name);
      at = original[name]!;
    }
    return at;
  };

  const transform = (node: unknown, openHere: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => transform(n, openHere));
    if (node === null || typeof node !== 'object') return node;
    let schema = node as JsonSchema;
    if (Array.isArray(schema.oneOf)) {
      const { oneOf, ...rest } = schema;
      schema = { ...rest, anyOf: oneOf };
    }
    if (Array.isArray(schema.allOf)) schema = flattenAllOf(schema, resolve);
    if (Array.isArray(schema.anyOf) && schema['x-tag'] === undefined) schema = tagUnion(schema, resolve);
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties') {
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, transform(v, false)]),
        );
      } else if (['x-source', 'x-tag', 'enum', 'const', 'required', 'if', 'not'].includes(key)) out[key] = value;
      else out[key] = transform(value, false);
    }
    if (
      options.closed &&
      !openHere &&
      out.properties !== undefined &&
      out.additionalProperties === undefined &&
      out['x-tag'] === undefined
    )
      out.additionalProperties = false;
    return out;
  };

  const open = new Set(options.open ?? []);
  for (const name of Object.keys(work)) work[name] = transform(work[name], open.has(name)) as JsonSchema;
  // Transforms may inline defs (flattened allOf parts, expanded unions): keep only what is still reached.
  const rootDef = work[root]!;
  const rest = closure(work, [...refsIn(rootDef)]).filter((n) => n !== root || refsIn(rootDef).has(root));
  const $defs = Object.fromEntries(rest.map((n) => [n, work[n]!]));
  return { ...rootDef, ...(rest.length > 0 ? { $defs } : {}) };
}

/** An object schema that is only a list of members (no union or condition of its own). */
function isPlainObject(schema: JsonSchema): boolean {
  return (
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined &&
    schema.if === undefined &&
    schema.not === undefined &&
    (schema.type === 'object' || schema.type === undefined) &&
    (schema.properties !== undefined || schema.required !== undefined)
  );
}

/** `allOf` of plain object parts (through `$ref`s) as one object; members both parts declare keep both schemas. */
function flattenAllOf(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): JsonSchema {
  const { allOf, ...own } = schema;
  const parts: JsonSchema[] = [];
  const expand = (part: JsonSchema): boolean => {
    const resolved = resolve(part);
    if (Array.isArray(resolved.allOf)) {
      const { allOf: inner, ...innerOwn } = resolved;
      const ownKeys = Object.keys(innerOwn).filter((k) => k !== 'x-source' && k !== 'type');
      if (ownKeys.length > 0) parts.push(innerOwn);
      return (inner as JsonSchema[]).every(expand);
    }
    if (!isPlainObject(resolved)) return false;
    parts.push(resolved);
    return true;
  };
  const ownStructure = Object.keys(own).filter((k) => k !== 'x-source' && k !== 'type');
  if (ownStructure.length > 0 && !isPlainObject(own)) return schema;
  if (!(allOf as JsonSchema[]).every(expand)) return schema;
  if (ownStructure.length > 0) parts.push(own);
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const extra: JsonSchema = {};
  for (const part of parts) {
    for (const [name, value] of Object.entries((part.properties as Record<string, unknown>) ?? {})) {
      const before = properties[name];
      properties[name] =
        before === undefined || JSON.stringify(before) === JSON.stringify(value) ? value : { allOf: [before, value] };
    }
    for (const name of (part.required as string[]) ?? []) required.add(name);
    for (const [k, v] of Object.entries(part))
      if (!['properties', 'required', 'type', 'x-source'].includes(k)) extra[k] = v;
  }
  return {
    type: 'object',
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
    ...extra,
    ...(own['x-source'] !== undefined ? { 'x-source': own['x-source'] } : {}),
  };
}

/** The tag values a union branch takes at `member`, and whether it may leave the member out. */
function tagOf(branch: JsonSchema, member: string): { values: string[]; optional: boolean } | undefined {
  const property = (branch.properties as Record<string, JsonSchema> | undefined)?.[member];
  if (!property) return undefined;
  const values = stringValues(property);
  if (!values) return undefined;
  return { values, optional: !((branch.required as string[] | undefined) ?? []).includes(member) };
}

function stringValues(schema: JsonSchema): string[] | undefined {
  if (typeof schema.const === 'string') return [schema.const];
  if (Array.isArray(schema.enum)) {
    const strings = schema.enum.filter((v): v is string => typeof v === 'string');
    return strings.length > 0 ? strings : undefined;
  }
  // A tag that may also be null (`type: "item_reference" | null`) still tells the branch apart.
  if (Array.isArray(schema.anyOf)) {
    const found = (schema.anyOf as JsonSchema[]).map(stringValues).filter((v) => v !== undefined);
    return found.length === 1 ? found[0] : undefined;
  }
  return undefined;
}

const TAG_PREFERENCE = ['type', 'role'];

/**
 * A union whose object branches each fix one member to their own values becomes `if`/`then` on it.
 * Branches that are unions themselves are opened up; branches that are not objects stay as they are.
 */
function tagUnion(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema): JsonSchema {
  const { anyOf, ...own } = schema;
  const objects: Array<{ ref: JsonSchema; body: JsonSchema }> = [];
  const others: JsonSchema[] = [];
  const expand = (branch: JsonSchema, depth: number): void => {
    const body = resolve(branch);
    const bodyKeys = Object.keys(body).filter((k) => k !== 'x-source' && k !== 'type');
    if (depth < 4 && Array.isArray(body.anyOf ?? body.oneOf) && bodyKeys.length === 1) {
      for (const inner of (body.anyOf ?? body.oneOf) as JsonSchema[]) expand(inner, depth + 1);
      return;
    }
    if (body.type === 'object' || (body.type === undefined && body.properties !== undefined))
      objects.push({ ref: branch, body });
    else others.push(branch);
  };
  for (const branch of anyOf as JsonSchema[]) expand(branch, 0);
  if (objects.length < 2) return schema;
  const candidates = Object.keys((objects[0]!.body.properties as Record<string, unknown>) ?? {}).filter((member) =>
    objects.every((o) => tagOf(o.body, member) !== undefined),
  );
  candidates.sort((a, b) => rank(a) - rank(b));
  // Prefer a member whose values tell every branch apart; else one that at least splits them.
  const scored = candidates.map((member) => {
    const all = objects.flatMap((o) => tagOf(o.body, member)!.values);
    return { member, distinct: new Set(all).size === all.length, groups: new Set(all).size };
  });
  const best =
    scored.find((c) => c.distinct) ?? [...scored].sort((a, b) => b.groups - a.groups).find((c) => c.groups > 1);
  if (!best) return schema;
  const member = best.member;
  const tags = objects.map((o) => tagOf(o.body, member)!);
  // Branches that share a value are alternatives for it: an object naming that value may match either.
  const byValue = new Map<string, number[]>();
  tags.forEach((t, i) => t.values.forEach((v) => byValue.set(v, [...(byValue.get(v) ?? []), i])));
  const byBranches = new Map<string, { values: string[]; branches: number[] }>();
  for (const [value, branches] of byValue) {
    const key = branches.join(',');
    const entry = byBranches.get(key) ?? { values: [], branches };
    entry.values.push(value);
    byBranches.set(key, entry);
  }
  const alternatives = (indexes: number[]): JsonSchema =>
    indexes.length === 1
      ? objects[indexes[0]!]!.ref
      : // A group as large as the whole union cannot be split further by this member: marked, not taken apart again.
        {
          anyOf: indexes.map((i) => objects[i]!.ref),
          ...(indexes.length === objects.length ? { 'x-tag': member } : {}),
        };
  const cases: JsonSchema[] = [...byBranches.values()].map(({ values, branches }) => ({
    if: { properties: { [member]: { enum: values } }, required: [member] },
    then: alternatives(branches),
  }));
  const optional = objects.map((_, i) => i).filter((i) => tags[i]!.optional);
  if (optional.length > 0) cases.push({ if: { not: { required: [member] } }, then: alternatives(optional) });
  const tagged: JsonSchema = {
    type: 'object',
    ...(optional.length === 0 ? { required: [member] } : {}),
    properties: { [member]: { enum: [...byValue.keys()] } },
    allOf: cases,
    'x-tag': member,
  };
  const union = others.length === 0 ? tagged : { anyOf: [...others, tagged] };
  return { ...withoutType(own), ...union };
}

function rank(member: string): number {
  const i = TAG_PREFERENCE.indexOf(member);
  return i === -1 ? TAG_PREFERENCE.length : i;
}

function withoutType(schema: JsonSchema): JsonSchema {
  const { type: _type, ...rest } = schema;
  return rest;
}
