import { closure, defRef, refsIn, type Distilled, type JsonSchema } from '../distilled.js';
import { STRUCTURAL_KEYWORDS, usablePattern, withNull } from './structural.js';
import { DefinitionImportError } from '../../../../shared/errors/definition-import-error.js';

/** One operation of an OpenAPI document, named by its operationId. */
export interface OpenApiOperation {
  name: string;
  operationId: string;
  /** The answer's component (distilled only where the pin names it). */
  response?: string;
  /**
   * A stream event's component. OpenAI's document gives a text/event-stream body no schema of its own; where a
   * document does (Open Responses: a oneOf of every event in the 200 answer), `events` names the def it becomes.
   */
  events?: string;
}

const COMPONENT = '#/components/schemas/';

/** One OpenAPI 3.0/3.1 schema node, reduced to structure; `$ref`s point at `#/$defs/<name>`. */
function distillNode(node: unknown, at: string): JsonSchema {
  if (node === true || node === undefined) return {};
  if (node === false) return { not: {} };
  if (node === null || typeof node !== 'object' || Array.isArray(node))
    throw new DefinitionImportError(`${at}: a schema must be an object`);
  const source = node as Record<string, unknown>;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (!STRUCTURAL_KEYWORDS.has(key)) continue;
    switch (key) {
      case '$ref': {
        const ref = String(value);
        if (!ref.startsWith(COMPONENT)) throw new DefinitionImportError(`${at}: a $ref outside ${COMPONENT}: ${ref}`);
        Object.assign(out, defRef(ref.slice(COMPONENT.length)));
        break;
      }
      case 'properties':
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, unknown>).map(([k, v]) => [
            k,
            distillNode(v, `${at}/properties/${k}`),
          ]),
        );
        break;
      case 'items':
      case 'not':
        out[key] = distillNode(value, `${at}/${key}`);
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'boolean' ? value : distillNode(value, `${at}/${key}`);
        break;
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
      case 'prefixItems':
        out[key] = (value as unknown[]).map((v, i) => distillNode(v, `${at}/${key}/${i}`));
        break;
      // OpenAPI 3.0 wrote exclusive bounds as booleans beside minimum/maximum.
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value === 'number') out[key] = value;
        break;
      case 'pattern':
        if (usablePattern(value)) out.pattern = value;
        break;
      default:
        out[key] = value;
    }
  }
  if (source.exclusiveMinimum === true && typeof source.minimum === 'number') {
    out.exclusiveMinimum = source.minimum;
    delete out.minimum;
  }
  if (source.exclusiveMaximum === true && typeof source.maximum === 'number') {
    out.exclusiveMaximum = source.maximum;
    delete out.maximum;
  }
  return source.nullable === true ? withNull(out) : out;
}

/** The schema an operation's 200 answer gives its text/event-stream body, if the document gives one. */
function streamSchemaOf(responses: unknown): unknown {
  const ok = (responses as Record<string, { content?: Record<string, { schema?: unknown }> }> | undefined)?.['200'];
  return ok?.content?.['text/event-stream']?.schema;
}

/**
 * An OpenAPI document's request bodies for the named operations, as distilled defs: every
 * component schema the bodies reach, with its place in the document as `x-source`.
 */
export function distillOpenApi(
  document: unknown,
  definition: string,
  sourceSha256: string,
  operations: readonly OpenApiOperation[],
): Distilled {
  const doc = document as {
    openapi?: string;
    paths?: Record<string, Record<string, { operationId?: string; requestBody?: unknown; responses?: unknown }>>;
    components?: { schemas?: Record<string, unknown> };
  };
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.'))
    throw new DefinitionImportError('not an OpenAPI 3 document (no "openapi": "3.x")');
  const schemas = doc.components?.schemas ?? {};
  const defs: Record<string, JsonSchema> = {};
  const ops: Distilled['operations'] = {};
  const roots: string[] = [];
  for (const op of operations) {
    const found = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, o]) => o && typeof o === 'object' && o.operationId === op.operationId)
        .map(([method, o]) => ({ path, method, body: o.requestBody, responses: o.responses })),
    );
    if (found.length !== 1)
      throw new DefinitionImportError(`operationId "${op.operationId}" found ${found.length} times`);
    const body = found[0]!.body as { content?: Record<string, { schema?: unknown }> } | undefined;
    const schema = body?.content?.['application/json']?.schema as Record<string, unknown> | undefined;
    if (!schema) throw new DefinitionImportError(`operation "${op.operationId}" has no application/json request body`);
    const at = `#/paths/${found[0]!.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${found[0]!.method}/requestBody`;
    let root: string;
    if (typeof schema.$ref === 'string' && schema.$ref.startsWith(COMPONENT))
      root = schema.$ref.slice(COMPONENT.length);
    else {
      root = `${op.name}Request`;
      defs[root] = { ...distillNode(schema, at), 'x-source': `${definition}${at}` };
    }
    const answer = op.response;
    if (op.events !== undefined && schemas[op.events] === undefined) {
      const stream = streamSchemaOf(found[0]!.responses);
      if (stream)
        defs[op.events] = {
          ...distillNode(stream, `${at.replace(/requestBody$/, '')}responses/200`),
          'x-source': `${definition}${at.replace(/requestBody$/, '')}responses/200/content/text~1event-stream/schema`,
        };
    }
    for (const name of [answer, op.events])
      if (name !== undefined && schemas[name] === undefined && defs[name] === undefined)
        throw new DefinitionImportError(`operation "${op.operationId}": ${COMPONENT}${name} is not defined`);
    ops[op.name] = {
      request: root,
      ...(answer !== undefined ? { response: answer } : {}),
      ...(op.events !== undefined ? { events: op.events } : {}),
    };
    roots.push(root, ...(answer !== undefined ? [answer] : []), ...(op.events !== undefined ? [op.events] : []));
  }
  // Distil the component schemas the bodies reach (a def already made inline brings its references).
  const pending = roots.flatMap((r) => (defs[r] ? [...refsIn(defs[r])] : [r]));
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (defs[name]) continue;
    const raw = schemas[name];
    if (raw === undefined) throw new DefinitionImportError(`${COMPONENT}${name} is referenced but not defined`);
    const def = { ...distillNode(raw, `${COMPONENT}${name}`), 'x-source': `${definition}${COMPONENT}${name}` };
    defs[name] = def;
    pending.push(...refsIn(def));
  }
  const keep = closure(defs, roots);
  return {
    definition,
    format: 'openapi',
    sourceSha256,
    operations: ops,
    defs: Object.fromEntries(keep.map((n) => [n, defs[n]!])),
  };
}
