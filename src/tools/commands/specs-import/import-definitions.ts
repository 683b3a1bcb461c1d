import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { buildRequestSchema } from './build-request-schema.js';
import type { DefinitionTarget, PinnedDefinition, PinnedOperation, ResponseTarget } from './definitions.js';
import { sha256Json, type Distilled, type JsonSchema } from './distilled.js';
import { distillDiscovery } from './formats/discovery.js';
import { distillOpenApi } from './formats/openapi.js';
import { distillProto } from './formats/proto.js';
import { distillSmithy } from './formats/smithy.js';
import { distillTypeScriptSdk } from './formats/typescript-sdk.js';
import { applyOverlays } from './overlays.js';
import { sourceSetSha256 } from './read-source.js';
import { DefinitionImportError } from '../../../shared/errors/definition-import-error.js';

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new DefinitionImportError(`the pin names no ${what}`);
  return value;
}

/** The answer and event types a pinned operation names, as the format readers take them. */
function answerOf(op: PinnedOperation): { response?: string; events?: string } {
  return {
    ...(op.response !== undefined ? { response: op.response } : {}),
    ...(op.events !== undefined ? { events: op.events } : {}),
  };
}

function readDocument(root: string, path: string): unknown {
  const text = readFileSync(join(root, path), 'utf8');
  return /\.ya?ml$/.test(path) ? parseYaml(text, { maxAliasCount: -1 }) : JSON.parse(text);
}

/** Reads a pinned definition's files (already checked against the pin) into its distilled form. */
export function distillDefinition(id: string, pin: PinnedDefinition, root: string): Distilled {
  const sha = sourceSetSha256(pin);
  const main = pin.files[0]!.path;
  switch (pin.format) {
    case 'openapi':
      return distillOpenApi(
        readDocument(root, main),
        id,
        sha,
        pin.operations.map((o) => ({ name: o.name, operationId: need(o.operationId, 'operationId'), ...answerOf(o) })),
      );
    case 'discovery':
      return distillDiscovery(
        readDocument(root, main),
        id,
        sha,
        pin.operations.map((o) => ({ name: o.name, methodId: need(o.methodId, 'methodId'), ...answerOf(o) })),
      );
    case 'smithy':
      return distillSmithy(
        readDocument(root, main),
        id,
        sha,
        pin.operations.map((o) => ({ name: o.name, shape: need(o.shape, 'shape'), ...answerOf(o) })),
      );
    case 'proto':
      return distillProto(
        need(pin.entry, 'entry'),
        root,
        id,
        sha,
        pin.operations.map((o) => ({ name: o.name, rpc: need(o.rpc, 'rpc'), ...answerOf(o) })),
      );
    case 'typescript-sdk':
      return distillTypeScriptSdk(
        root,
        pin.files.map((f) => f.path),
        id,
        sha,
        pin.operations.map((o) => ({
          name: o.name,
          file: need(o.file, 'file'),
          type: need(o.type, 'type'),
          ...answerOf(o),
        })),
      );
  }
}

/** What a spec records of where its request schema came from (`request.schemaSource`). */
export interface SchemaSource {
  definition: string;
  title: string;
  operation: string;
  basis: DefinitionTarget['basis'];
  pin: string;
  sourceSha256: string;
  schemaSha256: string;
  closed?: { evidence: string[] };
  overlays: Array<{ id: string; kind: string; at?: string; member?: string; evidence: string[] }>;
}

/** `openai/openai-openapi@f85dbe2 openapi.json`, or a URL with its version. */
export function describePin(pin: PinnedDefinition): string {
  const files = pin.files.map((f) => f.path).join(' ');
  if (pin.repository) return `${pin.repository}@${(pin.commit ?? pin.version ?? '').slice(0, 12)} ${files}`;
  return `${pin.url ?? files}${pin.version ? ` (${pin.version})` : ''}`;
}

/** The request schema of one spec, built from its definition's distilled form and its overlays. */
export function buildTarget(
  target: DefinitionTarget,
  pin: PinnedDefinition,
  distilled: Distilled,
): { schema: JsonSchema; schemaSource: SchemaSource } {
  const operation = distilled.operations[target.operation];
  if (!operation) throw new DefinitionImportError(`${target.definition} has no operation "${target.operation}"`);
  const defs = applyOverlays(distilled.defs, target.overlays ?? []);
  const schema = buildRequestSchema(defs, operation.request, {
    closed: target.closed !== undefined,
    open: target.open ?? [],
  });
  return {
    schema,
    schemaSource: {
      definition: target.definition,
      title: pin.title,
      operation: target.operation,
      basis: target.basis,
      pin: describePin(pin),
      sourceSha256: distilled.sourceSha256,
      schemaSha256: sha256Json(schema),
      ...(target.closed ? { closed: { evidence: target.closed.evidence } } : {}),
      overlays: (target.overlays ?? []).map((o) => ({
        id: o.id,
        kind: o.kind,
        ...(o.at !== undefined ? { at: o.at } : {}),
        ...('member' in o ? { member: o.member } : {}),
        evidence: o.evidence,
      })),
    },
  };
}

/**
 * What specs/responses/<id>.json holds: the schema a family's answer body must satisfy and the schema each of its
 * stream events must, both built from the definition's answer types and the target's overlays, and where they came
 * from. The provider side validates rendered answers against it; nothing here is written by hand.
 */
export interface ResponseSchemas {
  $schema: string;
  id: string;
  family: string;
  specs?: string[];
  suite?: true;
  eventsKeyedBy: 'data' | 'event-name';
  schemaSource: Omit<SchemaSource, 'schemaSha256' | 'closed'> & { responseSha256: string; eventSha256: string };
  response: JsonSchema;
  event: JsonSchema;
  endpoints?: Record<string, { operation: string; responseSha256: string; response: JsonSchema }>;
}

/** The answer and event schemas of one response target, from its definition's distilled form and its overlays. */
export function buildResponseTarget(
  target: ResponseTarget,
  pin: PinnedDefinition,
  distilled: Distilled,
): ResponseSchemas {
  const operation = distilled.operations[target.operation];
  if (!operation) throw new DefinitionImportError(`${target.definition} has no operation "${target.operation}"`);
  if (operation.response === undefined || operation.events === undefined)
    throw new DefinitionImportError(
      `${target.definition} ${target.operation}: the pin names no response and events types (specs/definitions.json)`,
    );
  const defs = applyOverlays(distilled.defs, target.overlays ?? []);
  // Answers are open: providers add members (reasoning_content, service_tier) a client must tolerate.
  const response = buildRequestSchema(defs, operation.response, { closed: false });
  const event = buildRequestSchema(defs, operation.events, { closed: false });
  const endpoints = Object.fromEntries(
    (target.endpoints ?? []).map(({ path, operation: name }) => {
      const answer = distilled.operations[name]?.response;
      if (answer === undefined)
        throw new DefinitionImportError(`${target.definition} ${name}: the pin names no response type for ${path}`);
      const schema = buildRequestSchema(defs, answer, { closed: false });
      return [path, { operation: name, responseSha256: sha256Json(schema), response: schema }];
    }),
  );
  return {
    $schema: '../schema/response-schemas.schema.json',
    id: target.id,
    family: target.family,
    ...(target.specs ? { specs: target.specs } : {}),
    ...(target.suite ? { suite: target.suite } : {}),
    eventsKeyedBy: target.eventsKeyedBy ?? 'data',
    schemaSource: {
      definition: target.definition,
      title: pin.title,
      operation: target.operation,
      basis: target.basis,
      pin: describePin(pin),
      sourceSha256: distilled.sourceSha256,
      responseSha256: sha256Json(response),
      eventSha256: sha256Json(event),
      overlays: (target.overlays ?? []).map((o) => ({
        id: o.id,
        kind: o.kind,
        ...(o.at !== undefined ? { at: o.at } : {}),
        ...('member' in o ? { member: o.member } : {}),
        evidence: o.evidence,
      })),
    },
    response,
    event,
    ...(target.endpoints ? { endpoints } : {}),
  };
}
