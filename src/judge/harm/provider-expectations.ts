import type { EchoRule, ProviderSpec, Rejection } from '../../shared/provider-specs/provider-spec.js';
import { objectView } from '../../shared/provider-specs/schema-paths.js';

/**
 * What a provider spec says about one key sent to it, read from the spec alone:
 * - reads: its request schema names the key (it takes it);
 * - ignores: the spec documents that it drops the key without effect;
 * - rejects: its schema is closed there; the rejection is named;
 * - undocumented: an open schema that neither names nor documents ignoring the key. Nobody has shown
 *   what the provider does with it, so sending it is a bet the gate refuses to take for the user.
 */
export type KeyVerdict =
  | { kind: 'reads'; source: string }
  | { kind: 'ignores'; source: string; notes?: string }
  | { kind: 'rejects'; rejectionId: string; rejection?: Rejection; source: string }
  | { kind: 'undocumented'; source: string };

/** Optional data the harm judge reads from a provider spec (see specs/schema/provider.schema.json). */
export interface HarmData {
  ignores?: Array<{ field: string; source: string; notes?: string }>;
  parameters?: Record<
    string,
    { models?: string[]; wanted?: unknown; refusedBy?: string; source: string; notes?: string }
  >;
  reachedAs?: Array<{ provider: string; host?: string; source: string; notes?: string }>;
  forbid?: Array<{ path: string; rejection: string }>;
}

export const harmData = (spec: ProviderSpec): HarmData => spec as unknown as HarmData;

type Schema = { properties?: Record<string, unknown>; additionalProperties?: unknown; items?: Schema };

// Read through $ref, allOf and tagged unions: imported schemas keep an assistant message's members in its branch.
const view = (spec: ProviderSpec, path: string[], sample?: Record<string, unknown>): Schema => {
  const { properties, closed } = objectView(spec.request.schema, path, sample);
  return { properties, ...(closed ? { additionalProperties: false } : {}) };
};
const messageSchema = (spec: ProviderSpec): Schema => view(spec, ['messages', '[]'], { role: 'assistant' });
const topSchema = (spec: ProviderSpec): Schema => view(spec, []);

export function specSource(spec: ProviderSpec): string {
  return spec.sources[0] ?? `specs/providers/${spec.id}.json`;
}

function rejectionSource(spec: ProviderSpec, id: string): string {
  return spec.rejections[id]?.sources[0] ?? specSource(spec);
}

/** A `forbid` entry (path like `messages.*.reasoning` or `/messages/*‌/reasoning`) that names a message key. */
function forbidden(spec: ProviderSpec, key: string, where: 'message' | 'top'): string | undefined {
  for (const f of harmData(spec).forbid ?? []) {
    const parts = f.path.replace(/^\//, '').split(/[./]/).filter(Boolean);
    const hit =
      where === 'message'
        ? parts.length === 3 && parts[0] === 'messages' && parts[1] === '*' && parts[2] === key
        : parts.length === 1 && parts[0] === key;
    if (hit) return f.rejection;
  }
  return undefined;
}

function verdictFor(spec: ProviderSpec, schema: Schema, key: string, where: 'message' | 'top'): KeyVerdict {
  const forbid = forbidden(spec, key, where);
  if (forbid)
    return {
      kind: 'rejects',
      rejectionId: forbid,
      ...(spec.rejections[forbid] ? { rejection: spec.rejections[forbid] } : {}),
      source: rejectionSource(spec, forbid),
    };
  if (schema.properties && key in schema.properties) return { kind: 'reads', source: specSource(spec) };
  const ignored = where === 'message' ? harmData(spec).ignores?.find((i) => i.field === key) : undefined;
  if (ignored) return { kind: 'ignores', source: ignored.source, ...(ignored.notes ? { notes: ignored.notes } : {}) };
  if (schema.additionalProperties === false) {
    const id =
      (where === 'top' ? spec.request.unknownMemberRejections?.[key] : undefined) ??
      (where === 'top' ? spec.request.unknownTopLevelRejection : undefined) ??
      spec.request.unknownFieldRejection ??
      spec.request.invalidRejection ??
      'schema';
    return {
      kind: 'rejects',
      rejectionId: id,
      ...(spec.rejections[id] ? { rejection: spec.rejections[id] } : {}),
      source: rejectionSource(spec, id),
    };
  }
  return { kind: 'undocumented', source: `specs/providers/${spec.id}.json` };
}

/** What the provider does with `key` on an assistant message. */
export function messageKeyVerdict(spec: ProviderSpec, key: string): KeyVerdict {
  return verdictFor(spec, messageSchema(spec), key, 'message');
}

/** What the provider does with a top-level request parameter `key`. */
export function parameterVerdict(spec: ProviderSpec, key: string): KeyVerdict {
  return verdictFor(spec, topSchema(spec), key, 'top');
}

/** Echo rules that apply to the target model (FIDELITY's per-model variants may drop some). */
export function echoRules(spec: ProviderSpec): EchoRule[] {
  return spec.echo;
}

/** The rejection a required echo names, with its status, for messages. */
export function echoRejection(spec: ProviderSpec, rule: EchoRule): { id?: string; status?: number; source: string } {
  const id = rule.rejection;
  const r = id ? spec.rejections[id] : undefined;
  return {
    ...(id ? { id } : {}),
    ...(r ? { status: r.status } : {}),
    source: r?.sources[0] ?? rule.source ?? specSource(spec),
  };
}
