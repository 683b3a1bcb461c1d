import type { ErrorObject } from 'ajv';
import { inlineValidator } from '../../shared/validation/validate.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';

/**
 * Anthropic (pydantic tagged unions) names a content block's type in the path:
 * `messages.65.content.1.tool_use.text`, not `messages.65.content.1.text`.
 */
function taggedPath(body: unknown, parts: readonly string[]): string {
  const out: string[] = [];
  let at: unknown = body;
  for (const part of parts) {
    at = Array.isArray(at) ? at[Number(part)] : isPlainObject(at) ? at[part] : undefined;
    out.push(part);
    if (/^\d+$/.test(part) && out.at(-2) === 'content' && isPlainObject(at) && typeof at.type === 'string')
      out.push(at.type);
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

function toFinding(
  spec: ProviderSpec,
  body: unknown,
  error: ErrorObject,
  nulls: ReadonlySet<string>,
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
  // Providers word a top-level unknown key differently from a nested one, and it has no index to fill.
  const rejection =
    (error.instancePath === '' && spec.request.unknownTopLevelRejection) || spec.request.unknownFieldRejection;
  if (error.keyword === 'additionalProperties' && rejection) {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    const dotted = where.path ? `${where.path}.${field}` : field;
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
  const findings: Finding[] = [];
  for (const error of errors) {
    const finding = toFinding(spec, body, error, nulls);
    if (finding && !findings.some((f) => f.detail === finding.detail)) findings.push(finding);
  }
  // An unknown key also fails the anyOf/oneOf branches around it; the provider names only the key.
  const unknown = findings.filter((f) => f.rule === 'strict-schema');
  if (unknown.length > 0) return unknown;
  // A member that must not be null is checked before the values of the members that are there.
  const isNull = (f: Finding) => f.rejection === spec.request.nullMemberRejection;
  return [...findings.filter(isNull), ...findings.filter((f) => !isNull(f))];
}
