import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Protobuf from 'protobufjs';
import { operationDefs, defRef, type Distilled, type JsonSchema } from '../distilled.js';
import { DefinitionImportError } from '../../../../shared/errors/definition-import-error.js';

/** One rpc of a proto3 service, named `package.Service.Method`. */
export interface ProtoOperation {
  name: string;
  rpc: string;
  /** The answer's type, in the format's own names (distilled only where the pin names it). */
  response?: string;
  /** One stream event's type, in the same names. */
  events?: string;
}

const requireCjs = createRequire(import.meta.url);

const SCALARS: Record<string, JsonSchema> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  bytes: { type: 'string' },
  double: { type: 'number' },
  float: { type: 'number' },
  int32: { type: 'integer' },
  uint32: { type: 'integer' },
  sint32: { type: 'integer' },
  fixed32: { type: 'integer' },
  sfixed32: { type: 'integer' },
  // 64-bit integers are written as decimal strings in proto3 JSON; parsers take numbers too.
  int64: { type: ['string', 'integer'] },
  uint64: { type: ['string', 'integer'] },
  sint64: { type: ['string', 'integer'] },
  fixed64: { type: ['string', 'integer'] },
  sfixed64: { type: ['string', 'integer'] },
};

// The well-known types have their own JSON forms (https://protobuf.dev/programming-guides/json/).
const WELL_KNOWN: Record<string, JsonSchema> = {
  'google.protobuf.Struct': { type: 'object' },
  'google.protobuf.Value': {},
  'google.protobuf.ListValue': { type: 'array' },
  'google.protobuf.Any': { type: 'object' },
  'google.protobuf.Duration': { type: 'string' },
  'google.protobuf.Timestamp': { type: 'string' },
  'google.protobuf.FieldMask': { type: 'string' },
  'google.protobuf.Empty': { type: 'object' },
};

/** proto3's JSON name of a field: lowerCamelCase of its proto name, unless `json_name` says otherwise. */
export function protoJsonName(field: Protobuf.Field): string {
  const explicit = (field.options as Record<string, unknown> | undefined)?.json_name;
  if (typeof explicit === 'string') return explicit;
  return field.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function fieldBehaviors(field: Protobuf.Field): string[] {
  const options = (field.parsedOptions ?? []) as Array<Record<string, unknown>>;
  return options.map((o) => o['(google.api.field_behavior)']).filter((b): b is string => typeof b === 'string');
}

/** The fields an rpc's HTTP binding takes from the URL path (`{model=models/*}`): required there, not in the body. */
function pathBoundFields(method: Protobuf.Method): Set<string> {
  const out = new Set<string>();
  for (const option of method.parsedOptions ?? []) {
    const http = (option as Record<string, unknown>)['(google.api.http)'] as Record<string, unknown> | undefined;
    if (!http) continue;
    for (const value of Object.values(http))
      if (typeof value === 'string') for (const m of value.matchAll(/\{([a-z_.]+)(=[^}]*)?\}/g)) out.add(m[1]!);
  }
  return out;
}

/**
 * Proto3 service definitions (the `.proto` files of googleapis, parsed with protobufjs): each
 * message an rpc's request reaches becomes a def named by its full name, each field by its JSON
 * name; `(google.api.field_behavior) = REQUIRED` makes a member required unless the HTTP binding
 * takes it from the URL path. Oneof groups are not enforced here.
 */
export function distillProto(
  entryFiles: readonly string[],
  root: string,
  definition: string,
  sourceSha256: string,
  operations: readonly ProtoOperation[],
): Distilled {
  const protobuf = requireCjs('protobufjs') as typeof Protobuf;
  const bundled = dirname(requireCjs.resolve('protobufjs/package.json'));
  const tree = new protobuf.Root();
  // google/protobuf/* come with protobufjs; everything else from the pinned files.
  tree.resolvePath = (_origin, target) => {
    if (target.startsWith('google/protobuf/')) {
      const path = join(bundled, target);
      return existsSync(path) ? path : null;
    }
    return join(root, target);
  };
  tree.loadSync([...entryFiles], { keepCase: true, alternateCommentMode: false });
  tree.resolveAll();

  const defs: Record<string, JsonSchema> = {};
  const nameOf = (t: Protobuf.ReflectionObject) => t.fullName.replace(/^\./, '');

  const typeSchema = (field: Protobuf.Field): JsonSchema => {
    const resolved = field.resolvedType;
    if (!resolved) {
      const scalar = SCALARS[field.type];
      if (!scalar) throw new DefinitionImportError(`${field.fullName}: unknown scalar type ${field.type}`);
      return { ...scalar };
    }
    const name = nameOf(resolved);
    if (WELL_KNOWN[name]) return { ...WELL_KNOWN[name] };
    if (resolved instanceof protobuf.Enum) {
      if (!defs[name])
        defs[name] = { type: 'string', enum: Object.keys(resolved.values), 'x-source': `${definition}:${name}` };
      return defRef(name);
    }
    queue.push(resolved as Protobuf.Type);
    return defRef(name);
  };

  const queue: Protobuf.Type[] = [];
  const ops: Distilled['operations'] = {};
  for (const op of operations) {
    const method = tree.lookup(op.rpc);
    if (!(method instanceof protobuf.Method)) throw new DefinitionImportError(`rpc ${op.rpc} not found`);
    method.resolve();
    const request = method.resolvedRequestType!;
    const answers: Record<string, string> = {};
    for (const key of ['response', 'events'] as const) {
      const typeName = op[key];
      if (typeName === undefined) continue;
      const found = tree.lookupType(typeName);
      answers[key] = nameOf(found);
      queue.push(found);
    }
    ops[op.name] = { request: nameOf(request), ...answers };
    const bound = pathBoundFields(method);
    queue.push(request);
    distillMessage(request, bound);
  }
  while (queue.length > 0) distillMessage(queue.pop()!, new Set());

  function distillMessage(type: Protobuf.Type, bound: ReadonlySet<string>): void {
    const name = nameOf(type);
    if (defs[name]) return;
    defs[name] = {};
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of type.fieldsArray) {
      const json = protoJsonName(field);
      const value = typeSchema(field);
      properties[json] = field.map
        ? { type: 'object', additionalProperties: value }
        : field.repeated
          ? { type: 'array', items: value }
          : value;
      if (fieldBehaviors(field).includes('REQUIRED') && !bound.has(field.name)) required.push(json);
    }
    defs[name] = {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      'x-source': `${definition}:${name}`,
    };
  }

  return {
    definition,
    format: 'proto',
    sourceSha256,
    operations: ops,
    defs: operationDefs(defs, ops),
  };
}
