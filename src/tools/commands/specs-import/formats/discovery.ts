import { closure, defRef, operationRoots, refsIn, type Distilled, type JsonSchema } from '../distilled.js';
import { usablePattern } from './structural.js';
import { DefinitionImportError } from '../../../../shared/errors/definition-import-error.js';

/** One method of a Google discovery document, named by its method id (`aiplatform.projects....generateContent`). */
export interface DiscoveryOperation {
  name: string;
  methodId: string;
  /** The answer's type, in the format's own names (distilled only where the pin names it). */
  response?: string;
  /** One stream event's type, in the same names. */
  events?: string;
}

interface DiscoverySchema {
  type?: string;
  $ref?: string;
  properties?: Record<string, DiscoverySchema>;
  items?: DiscoverySchema;
  additionalProperties?: DiscoverySchema;
  enum?: string[];
  format?: string;
  minimum?: string;
  maximum?: string;
  pattern?: string;
  description?: string;
}

interface DiscoveryMethod {
  id?: string;
  request?: { $ref?: string };
}

interface DiscoveryResource {
  methods?: Record<string, DiscoveryMethod>;
  resources?: Record<string, DiscoveryResource>;
}

// Google's generator writes a field's `google.api.field_behavior` as the first word of its
// description (AIP-203); that marker is read, the description itself is not kept.
const REQUIRED_MARKER = /^Required\./;

/** Proto int64/uint64 travel as decimal strings in JSON; parsers also take numbers. */
const INT64 = new Set(['int64', 'uint64']);

function distillProperty(node: DiscoverySchema, at: string): JsonSchema {
  if (node.$ref) return defRef(node.$ref);
  const out: JsonSchema = {};
  switch (node.type) {
    case 'any':
      break;
    case 'string':
      out.type = node.format && INT64.has(node.format) ? ['string', 'integer'] : 'string';
      if (node.enum) out.enum = [...node.enum];
      if (usablePattern(node.pattern)) out.pattern = node.pattern;
      break;
    case 'integer':
    case 'number':
    case 'boolean':
      out.type = node.type;
      break;
    case 'array':
      out.type = 'array';
      if (node.items) out.items = distillProperty(node.items, `${at}/items`);
      break;
    case 'object':
      out.type = 'object';
      if (node.properties) Object.assign(out, distillObject(node, at));
      if (node.additionalProperties)
        out.additionalProperties = distillProperty(node.additionalProperties, `${at}/additionalProperties`);
      break;
    case undefined:
      break;
    default:
      throw new DefinitionImportError(`${at}: unknown discovery type "${node.type}"`);
  }
  if (node.minimum !== undefined) out.minimum = Number(node.minimum);
  if (node.maximum !== undefined) out.maximum = Number(node.maximum);
  return out;
}

function distillObject(node: DiscoverySchema, at: string): JsonSchema {
  const entries = Object.entries(node.properties ?? {});
  const required = entries.filter(([, p]) => REQUIRED_MARKER.test(p.description ?? '')).map(([k]) => k);
  return {
    type: 'object',
    properties: Object.fromEntries(entries.map(([k, p]) => [k, distillProperty(p, `${at}/properties/${k}`)])),
    ...(required.length > 0 ? { required } : {}),
  };
}

function findMethod(resources: Record<string, DiscoveryResource> | undefined, id: string): DiscoveryMethod | undefined {
  for (const resource of Object.values(resources ?? {})) {
    const own = Object.values(resource.methods ?? {}).find((m) => m.id === id);
    if (own) return own;
    const nested = findMethod(resource.resources, id);
    if (nested) return nested;
  }
  return undefined;
}

/** A Google discovery document's request bodies for the named methods, as distilled defs. */
export function distillDiscovery(
  document: unknown,
  definition: string,
  sourceSha256: string,
  operations: readonly DiscoveryOperation[],
): Distilled {
  const doc = document as {
    kind?: string;
    schemas?: Record<string, DiscoverySchema>;
    resources?: Record<string, DiscoveryResource>;
  };
  if (doc.kind !== 'discovery#restDescription') throw new DefinitionImportError('not a discovery document (kind)');
  const schemas = doc.schemas ?? {};
  const ops: Distilled['operations'] = {};
  for (const op of operations) {
    const method = findMethod(doc.resources, op.methodId);
    if (!method?.request?.$ref)
      throw new DefinitionImportError(`method "${op.methodId}" not found or has no request body`);
    ops[op.name] = {
      request: method.request.$ref,
      ...(op.response !== undefined ? { response: op.response } : {}),
      ...(op.events !== undefined ? { events: op.events } : {}),
    };
  }
  const defs: Record<string, JsonSchema> = {};
  const pending = operationRoots(ops);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (defs[name]) continue;
    const raw = schemas[name];
    if (!raw) throw new DefinitionImportError(`schemas.${name} is referenced but not defined`);
    const def = {
      ...distillProperty({ type: 'object', ...raw }, `schemas.${name}`),
      'x-source': `${definition}#/schemas/${name}`,
    };
    defs[name] = def;
    pending.push(...refsIn(def));
  }
  const keep = closure(defs, operationRoots(ops));
  return {
    definition,
    format: 'discovery',
    sourceSha256,
    operations: ops,
    defs: Object.fromEntries(keep.map((n) => [n, defs[n]!])),
  };
}
