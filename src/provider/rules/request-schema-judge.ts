import type { ErrorObject } from 'ajv';
import { inlineValidator } from '../../shared/validation/validate.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { googlePath, walkSchema } from '../../shared/provider-specs/schema-paths.js';

/**
 * Anthropic (pydantic tagged unions) names a content block's type in the path:
 * `messages.65.content.1.tool_use.text`, not `messages.65.content.1.text`; the top-level `thinking` union too:
 * `thinking.adaptive.budget_tokens` (NousResearch/hermes-agent#1128), `thinking.enabled.budget_tokens`.
 */
function taggedPath(body: unknown, parts: readonly string[]): string {
  const out: string[] = [];
  let at: unknown = body;
  for (const part of parts) {
    at = Array.isArray(at) ? at[Number(part)] : isPlainObject(at) ? at[part] : undefined;
    out.push(part);
    const tagged = (/^\d+$/.test(part) && out.at(-2) === 'content') || (out.length === 1 && part === 'thinking');
    if (tagged && isPlainObject(at) && typeof at.type === 'string') out.push(at.type);
  }
  return out.join('.');
}

/** `/messages/2/tool_calls/0` -> `{index: 2, path: "messages.2.tool_calls.0"}`, plus the message's role. */
function locate(body: unknown, instancePath: string, tagged = false): { index?: number; role?: string; path: string } {
  const parts = instancePath.split('/').slice(1);
  const path = tagged ? taggedPath(body, parts) : parts.join('.');
  const listIndex = parts.findIndex((p) => /^\d+$/.test(p));
  if (listIndex < 1 || !isPlainObject(body)) return { path };
  const index = Number(parts[listIndex]);
  const list = body[parts[listIndex - 1]!];
  const item = Array.isArray(list) ? list[index] : undefined;
  const role = isPlainObject(item) && typeof item.role === 'string' ? item.role : undefined;
  return role === undefined ? { index, path } : { index, role, path };
}

/** A copy without the object members whose value is null: AWS's JSON protocols read a null member as an absent one. */
function withoutNullMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullMembers);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNullMembers(v)]),
  );
}

/**
 * Pointers of the nested required members that are absent or null, for providers that answer those
 * on their own (`request.nullMemberRejection`, Bedrock's "Member must not be null"). Top-level keys
 * are left to the other rejections: Converse's `messages` itself is optional (prompt resources).
 */
function nullMembers(spec: ProviderSpec, body: unknown): Set<string> {
  if (!spec.request.nullMemberRejection) return new Set();
  const validate = inlineValidator(spec.request.schema);
  validate(withoutNullMembers(body));
  const absent = (validate.errors ?? []).filter((e) => e.keyword === 'required' && e.instancePath !== '');
  return new Set(absent.map((e) => `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`));
}

/**
 * `/messages/1/content/0/reasoningContent` -> `messages.1.member.content.0.member.reasoningContent`, how AWS names a
 * member.
 */
function awsMemberPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .flatMap((part) => (/^\d+$/.test(part) ? [part, 'member'] : [part]))
    .join('.');
}

/** The failure classes a spec can word on its own (`request.keywordRejections`), by ajv keyword. */
export type KeywordClass = 'enum' | 'type' | 'required' | 'range' | 'length';
const CLASS_OF: Record<string, KeywordClass> = {
  enum: 'enum',
  const: 'enum',
  type: 'type',
  required: 'required',
  minimum: 'range',
  maximum: 'range',
  exclusiveMinimum: 'range',
  exclusiveMaximum: 'range',
  minLength: 'length',
  maxLength: 'length',
  minItems: 'length',
  maxItems: 'length',
  minProperties: 'length',
  maxProperties: 'length',
};

/** `'a', 'b', and 'c'` (OpenAI), `'a', 'b' or 'c'` (pydantic), `a, b, c` (AWS). */
function listed(values: readonly unknown[], last: 'and' | 'or' | 'none'): string {
  const shown = values.map((v) => (last === 'none' ? String(v) : `'${String(v)}'`));
  if (last === 'none' || shown.length < 2) return shown.join(', ');
  if (shown.length === 2) return `${shown[0]} ${last} ${shown[1]}`;
  const head = shown.slice(0, -1).join(', ');
  return last === 'and' ? `${head}, and ${shown.at(-1)}` : `${head} or ${shown.at(-1)}`;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  array: 'an array',
  object: 'an object',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};
const typeName = (value: unknown) =>
  ARTICLE[
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value
  ] ?? typeof value;

function valueAt(body: unknown, pointer: string): unknown {
  let at = body;
  for (const part of pointer.split('/').slice(1))
    at = Array.isArray(at) ? at[Number(part)] : isPlainObject(at) ? at[part] : undefined;
  return at;
}

/**
 * A failure inside one branch of a union says nothing of what the provider expected when another
 * branch failed too, unless that branch only allowed null (a nullable member).
 */
function insideUnion(error: ErrorObject, all: readonly ErrorObject[]): boolean {
  const at = error.schemaPath.lastIndexOf('/anyOf/');
  if (at === -1) return false;
  const prefix = error.schemaPath.slice(0, at + '/anyOf/'.length);
  const branch = error.schemaPath.slice(prefix.length).split('/')[0];
  return all.some(
    (other) =>
      other.schemaPath.startsWith(prefix) &&
      other.schemaPath.slice(prefix.length).split('/')[0] !== branch &&
      !(other.keyword === 'type' && (other.params as { type: unknown }).type === 'null'),
  );
}

/**
 * The provider's own wording for an enum, type, required, range or length failure, where the
 * spec names one (`request.keywordRejections`), with what the value was and what was expected.
 */
function keywordFinding(
  spec: ProviderSpec,
  body: unknown,
  error: ErrorObject,
  where: { index?: number; role?: string; path: string },
  noise: ReadonlySet<ErrorObject>,
): Finding | undefined {
  const cls = CLASS_OF[error.keyword];
  const rejection = cls && spec.request.keywordRejections?.[cls];
  if (!rejection || noise.has(error)) return undefined;
  const missing =
    error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : undefined;
  const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing}`;
  const path = missing === undefined ? where.path : where.path ? `${where.path}.${missing}` : missing;
  const value = valueAt(body, error.instancePath);
  const params: Record<string, string | number> = {
    ...where,
    path,
    field: missing ?? pointer.split('/').at(-1) ?? '',
    param: path.replace(/\.(\d+)(?=\.|$)/g, '[$1]'),
    found: typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'),
    found_type: typeName(value),
  };
  if (cls === 'required') params.field = path;
  if (cls === 'enum') {
    const allowed =
      error.keyword === 'const'
        ? [(error.params as { allowedValue: unknown }).allowedValue]
        : (error.params as { allowedValues: unknown[] }).allowedValues;
    params.allowed_and = listed(allowed, 'and');
    params.allowed_or = listed(allowed, 'or');
    params.allowed_list = listed(allowed, 'none');
  }
  if (cls === 'type') {
    const expected = (error.params as { type: string | string[] }).type;
    // Only a single expected type has a wording that follows from the sources.
    if (typeof expected !== 'string' || expected.includes(',')) return undefined;
    params.expected = ARTICLE[expected] ?? expected;
  }
  if (cls === 'range' || cls === 'length') params.limit = (error.params as { limit: number }).limit;
  const walk = walkSchema(spec.request.schema, body, pointer);
  params.proto_path = googlePath(walk.steps);
  const protoType = /^[^:#]+:([a-z][\w.]*\.[A-Z]\w*)$/.exec(walk.source ?? '')?.[1];
  if (protoType) params.enum_type = `type.googleapis.com/${protoType}`;
  // A placeholder the rejection needs but this failure cannot fill: the generic wording answers instead.
  const needs = [...JSON.stringify(spec.rejections[rejection]?.body ?? '').matchAll(/\{([a-z_]+)\}/g)].map(
    (m) => m[1]!,
  );
  if (needs.some((n) => params[n] === undefined)) return undefined;
  return {
    rule: 'provider-accepts',
    rejection,
    params,
    detail: `${pointer || '/'} ${error.message ?? error.keyword}`,
  };
}

function toFinding(
  spec: ProviderSpec,
  body: unknown,
  error: ErrorObject,
  nulls: ReadonlySet<string>,
  noise: ReadonlySet<ErrorObject> = new Set(),
): Finding | undefined {
  const where = locate(body, error.instancePath, spec.family === 'anthropic-messages');
  const member =
    error.keyword === 'required'
      ? `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`
      : error.instancePath;
  // Any complaint about a required member that is null (its type, an enum, a union around it) is that member being
  // null.
  if (spec.request.nullMemberRejection && nulls.has(member)) {
    return {
      rule: 'provider-accepts',
      rejection: spec.request.nullMemberRejection,
      params: {
        ...where,
        field: member.split('/').at(-1)!,
        path: member.slice(1).replaceAll('/', '.'),
        member: awsMemberPath(member),
      },
      detail: `${member} is absent or null`,
    };
  }
  // Providers word a top-level unknown key differently from a nested one, and it has no index to fill; a few members
  // they word on their own (a parameter that moved elsewhere).
  const field =
    error.keyword === 'additionalProperties' ? (error.params as { additionalProperty: string }).additionalProperty : '';
  const dotted = where.path ? `${where.path}.${field}` : field;
  const rejection =
    spec.request.unknownMemberRejections?.[dotted] ??
    ((error.instancePath === '' && spec.request.unknownTopLevelRejection) || spec.request.unknownFieldRejection);
  if (error.keyword === 'additionalProperties' && rejection) {
    return {
      rule: 'strict-schema',
      rejection,
      // `param`: the same path in OpenAI's notation, messages[2].tool_calls[0].index.
      params: { ...where, field, path: dotted, param: dotted.replace(/\.(\d+)(?=\.|$)/g, '[$1]') },
      detail: `unexpected property "${field}" at /${error.instancePath.slice(1)}`,
    };
  }
  if (
    error.keyword === 'required' &&
    error.instancePath === '' &&
    (error.params as { missingProperty: string }).missingProperty === 'model' &&
    spec.request.missingModelRejection
  ) {
    return {
      rule: 'provider-accepts',
      rejection: spec.request.missingModelRejection,
      params: { field: 'model', path: 'model' },
      detail: 'the body names no model',
    };
  }
  if (error.keyword === 'required' && error.instancePath === '' && spec.request.missingFieldRejection) {
    const field = (error.params as { missingProperty: string }).missingProperty;
    return {
      rule: 'provider-accepts',
      rejection: spec.request.missingFieldRejection,
      params: { field, path: field },
      detail: `the body has no ${field}`,
    };
  }
  const keyword = keywordFinding(spec, body, error, where, noise);
  if (keyword) return keyword;
  if (spec.request.invalidRejection) {
    return {
      rule: 'provider-accepts',
      rejection: spec.request.invalidRejection,
      params: { ...where, field: where.path },
      detail: `${error.instancePath || '/'} ${error.message ?? error.keyword}`,
    };
  }
  return undefined;
}

/** Checks the body against the provider's request schema; unknown fields first, as providers report them. */
export function judgeRequestSchema(spec: ProviderSpec, body: unknown): Finding[] {
  const validate = inlineValidator(spec.request.schema);
  if (validate(body)) return [];
  const failed = [...(validate.errors ?? [])];
  const nulls = nullMembers(spec, body);
  // Unknown fields first, as providers report them; then a missing model, which providers check before the rest.
  const rank = (e: ErrorObject) =>
    e.keyword === 'additionalProperties' ? 2 : e.keyword === 'required' && e.instancePath === '' ? 1 : 0;
  const errors = failed.sort((a, b) => rank(b) - rank(a));
  const noise = new Set(failed.filter((e) => insideUnion(e, failed)));
  const findings: Finding[] = [];
  for (const error of errors) {
    const finding = toFinding(spec, body, error, nulls, noise);
    if (finding && !findings.some((f) => f.detail === finding.detail)) findings.push(finding);
  }
  // An unknown key also fails the anyOf/oneOf branches around it; the provider names only the key.
  const unknown = findings.filter((f) => f.rule === 'strict-schema');
  if (unknown.length > 0) return unknown;
  // A member that must not be null is checked before the values of the members that are there; a failure the
  // provider words on its own comes before the generic answer.
  const isNull = (f: Finding) => f.rejection === spec.request.nullMemberRejection;
  const worded = new Set(Object.values(spec.request.keywordRejections ?? {}));
  const isWorded = (f: Finding) => !isNull(f) && worded.has(f.rejection);
  return [
    ...findings.filter(isNull),
    ...findings.filter(isWorded),
    ...findings.filter((f) => !isNull(f) && !isWorded(f)),
  ];
}
