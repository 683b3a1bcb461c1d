import { operationDefs, operationRoots, defRef, refsIn, type Distilled, type JsonSchema } from '../distilled.js';
import { usablePattern } from './structural.js';
import { DefinitionImportError } from '../../../../shared/errors/definition-import-error.js';

/** One operation of a Smithy model, named by its shape id (`com.amazonaws.bedrockruntime#Converse`). */
export interface SmithyOperation {
  name: string;
  shape: string;
  /** The answer's type, in the format's own names (distilled only where the pin names it). */
  response?: string;
  /** One stream event's type, in the same names. */
  events?: string;
}

interface Member {
  target: string;
  traits?: Record<string, unknown>;
}

interface Shape {
  type: string;
  member?: Member;
  key?: Member;
  value?: Member;
  members?: Record<string, Member>;
  input?: { target: string };
  traits?: Record<string, unknown>;
}

const PRELUDE: Record<string, JsonSchema> = {
  'smithy.api#String': { type: 'string' },
  'smithy.api#Boolean': { type: 'boolean' },
  'smithy.api#PrimitiveBoolean': { type: 'boolean' },
  'smithy.api#Integer': { type: 'integer' },
  'smithy.api#PrimitiveInteger': { type: 'integer' },
  'smithy.api#Long': { type: 'integer' },
  'smithy.api#PrimitiveLong': { type: 'integer' },
  'smithy.api#Short': { type: 'integer' },
  'smithy.api#Byte': { type: 'integer' },
  'smithy.api#Float': { type: 'number' },
  'smithy.api#PrimitiveFloat': { type: 'number' },
  'smithy.api#Double': { type: 'number' },
  'smithy.api#PrimitiveDouble': { type: 'number' },
  'smithy.api#BigDecimal': { type: 'number' },
  'smithy.api#BigInteger': { type: 'integer' },
  // A blob travels as base64 text in AWS's JSON protocols; a timestamp as epoch seconds (or a date string).
  'smithy.api#Blob': { type: 'string' },
  'smithy.api#Timestamp': { type: ['number', 'string'] },
  'smithy.api#Document': {},
  'smithy.api#Unit': { type: 'object', maxProperties: 0 },
};

const SIMPLE: Record<string, JsonSchema> = {
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  integer: { type: 'integer' },
  long: { type: 'integer' },
  short: { type: 'integer' },
  byte: { type: 'integer' },
  bigInteger: { type: 'integer' },
  float: { type: 'number' },
  double: { type: 'number' },
  bigDecimal: { type: 'number' },
  blob: { type: 'string' },
  timestamp: { type: ['number', 'string'] },
  document: {},
};

// Members bound to the URL, a header or the query string are not part of the JSON body.
const NOT_IN_BODY = [
  'smithy.api#httpLabel',
  'smithy.api#httpHeader',
  'smithy.api#httpQuery',
  'smithy.api#httpPrefixHeaders',
];

/** The constraint traits as JSON Schema keywords for a value of the given JSON type. */
function constraints(traits: Record<string, unknown> | undefined, type: unknown): JsonSchema {
  const out: JsonSchema = {};
  const length = traits?.['smithy.api#length'] as { min?: number; max?: number } | undefined;
  if (length) {
    const [min, max] =
      type === 'array'
        ? ['minItems', 'maxItems']
        : type === 'object'
          ? ['minProperties', 'maxProperties']
          : type === 'string'
            ? ['minLength', 'maxLength']
            : [];
    if (min && length.min !== undefined) out[min] = length.min;
    if (max && length.max !== undefined) out[max] = length.max;
  }
  const range = traits?.['smithy.api#range'] as { min?: number | string; max?: number | string } | undefined;
  if (range) {
    if (range.min !== undefined) out.minimum = Number(range.min);
    if (range.max !== undefined) out.maximum = Number(range.max);
  }
  const pattern = traits?.['smithy.api#pattern'];
  if (usablePattern(pattern)) out.pattern = pattern;
  return out;
}

/**
 * A Smithy 2.0 JSON AST model's operation inputs, as distilled defs: structures, unions, lists,
 * maps and enums become defs named by their shape name; simple shapes are inlined with their
 * constraint traits. A union is an object with exactly one member set.
 */
export function distillSmithy(
  model: unknown,
  definition: string,
  sourceSha256: string,
  operations: readonly SmithyOperation[],
): Distilled {
  const doc = model as { smithy?: string; shapes?: Record<string, Shape> };
  if (typeof doc.smithy !== 'string' || !doc.shapes)
    throw new DefinitionImportError('not a Smithy JSON AST model (no "smithy")');
  const shapes = doc.shapes;
  const nameOf = (id: string) => id.split('#').at(-1)!;
  const defs: Record<string, JsonSchema> = {};

  const schemaOf = (target: string): JsonSchema => {
    const prelude = PRELUDE[target];
    if (prelude) return { ...prelude };
    const shape = shapes[target];
    if (!shape) throw new DefinitionImportError(`shape ${target} is referenced but not defined`);
    const simple = SIMPLE[shape.type];
    if (simple) return { ...simple, ...constraints(shape.traits, simple.type) };
    if (shape.type === 'intEnum')
      return {
        type: 'integer',
        enum: Object.values(shape.members ?? {}).map((m) => m.traits?.['smithy.api#enumValue']),
      };
    return defRef(nameOf(target));
  };

  const memberSchema = (member: Member): JsonSchema => {
    const base = schemaOf(member.target);
    const type = base.$ref ? defType(shapes[member.target]) : base.type;
    const own = constraints(member.traits, type);
    return Object.keys(own).length === 0 ? base : base.$ref ? { allOf: [base, own] } : { ...base, ...own };
  };

  const distillShape = (id: string): JsonSchema => {
    const shape = shapes[id]!;
    const source = { 'x-source': `${definition}#${id}` };
    switch (shape.type) {
      case 'structure':
      case 'union': {
        const members = Object.entries(shape.members ?? {}).filter(
          ([, m]) => !NOT_IN_BODY.some((t) => m.traits?.[t] !== undefined),
        );
        const properties = Object.fromEntries(
          members.map(([name, m]) => [
            (m.traits?.['smithy.api#jsonName'] as string | undefined) ?? name,
            memberSchema(m),
          ]),
        );
        const required =
          shape.type === 'structure'
            ? members.filter(([, m]) => m.traits?.['smithy.api#required'] !== undefined).map(([n]) => n)
            : [];
        return {
          type: 'object',
          properties,
          ...(required.length > 0 ? { required } : {}),
          ...(shape.type === 'union' ? { minProperties: 1, maxProperties: 1 } : {}),
          ...constraints(shape.traits, 'object'),
          ...source,
        };
      }
      case 'list':
      case 'set':
        return {
          type: 'array',
          items: memberSchema(shape.member!),
          ...(shape.type === 'set' ? { uniqueItems: true } : {}),
          ...constraints(shape.traits, 'array'),
          ...source,
        };
      case 'map':
        return {
          type: 'object',
          additionalProperties: memberSchema(shape.value!),
          ...constraints(shape.traits, 'object'),
          ...source,
        };
      case 'enum':
        return {
          type: 'string',
          enum: Object.entries(shape.members ?? {}).map(
            ([name, m]) => (m.traits?.['smithy.api#enumValue'] as string | undefined) ?? name,
          ),
          ...source,
        };
      default:
        throw new DefinitionImportError(`shape ${id}: type "${shape.type}" cannot be a request member`);
    }
  };

  const ops: Distilled['operations'] = {};
  const idOf = new Map<string, string>();
  for (const [id] of Object.entries(shapes)) idOf.set(nameOf(id), id);
  for (const op of operations) {
    const input = shapes[op.shape]?.input?.target;
    if (shapes[op.shape]?.type !== 'operation' || !input)
      throw new DefinitionImportError(`operation ${op.shape} has no input`);
    const answers: Record<string, string> = {};
    for (const key of ['response', 'events'] as const) {
      const id = op[key];
      if (id === undefined) continue;
      if (!shapes[id]) throw new DefinitionImportError(`shape ${id} is not defined`);
      answers[key] = nameOf(id);
    }
    ops[op.name] = { request: nameOf(input), ...answers };
  }
  const pending = operationRoots(ops);
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (defs[name]) continue;
    const id = idOf.get(name)!;
    defs[name] = distillShape(id);
    pending.push(...refsIn(defs[name]));
  }
  return {
    definition,
    format: 'smithy',
    sourceSha256,
    operations: ops,
    defs: operationDefs(defs, ops),
  };
}

/** The JSON type a def-producing shape has, so member constraints land on the right keyword. */
function defType(shape: Shape | undefined): string | undefined {
  if (!shape) return undefined;
  if (shape.type === 'list' || shape.type === 'set') return 'array';
  if (shape.type === 'enum') return 'string';
  return 'object';
}
