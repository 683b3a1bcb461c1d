import { parameterForbids } from './parameter-table.js';
import type { ForbidRule, ProviderSpec } from './provider-spec.js';

const cache = new WeakMap<ProviderSpec, Map<string, ProviderSpec>>();

/** Whether this endpoint serves the model at all (`models.serves`; any model when unset). */
export function servesModel(spec: ProviderSpec, model: string): boolean {
  return spec.models?.serves === undefined || new RegExp(spec.models.serves).test(model);
}

/** The variant of `models.variants` that applies to a model: the first whose `match` fits. */
export function variantFor(spec: ProviderSpec, model: string) {
  return spec.models?.variants?.find((v) => new RegExp(v.match).test(model));
}

/**
 * The forbids that hold for a model: those naming no `models`, and those whose `models` matches it,
 * resolved (without `models`; the judge skips a forbid still naming models, whose model is unknown).
 */
function forbidsFor(forbid: ForbidRule[], model: string): ForbidRule[] {
  return forbid.flatMap(({ models, ...rule }) =>
    models === undefined ? [rule] : new RegExp(models).test(model) ? [rule] : [],
  );
}

/**
 * The rule set one model gets: the spec with its first matching variant applied. A variant can
 * drop rejections it does not enforce (`without`, which also drops echo rules, forbids and message
 * rules naming them), replace the echo rules, add or reword rejections and add forbids and message rules. The
 * parameter tables (`models.parameters`) add their rows as forbids scoped to their models. Specs are data, so a new
 * model family is a new variant or row, not new code.
 */
export function specForModel(spec: ProviderSpec, model: string): ProviderSpec {
  let byModel = cache.get(spec);
  if (!byModel) cache.set(spec, (byModel = new Map()));
  const hit = byModel.get(model);
  if (hit) return hit;
  const variant = variantFor(spec, model);
  // The parameter tables' rows come first: a model family's own value list is more specific than a spec-wide rule.
  const ownForbid = [...parameterForbids(spec), ...(spec.forbid ?? [])];
  let out = ownForbid.some((f) => f.models !== undefined) ? { ...spec, forbid: forbidsFor(ownForbid, model) } : spec;
  if (variant) {
    const dropped = new Set(variant.without ?? []);
    const rejections = Object.fromEntries(
      Object.entries({ ...spec.rejections, ...(variant.rejections ?? {}) }).filter(([id]) => !dropped.has(id)),
    );
    const echo = (variant.echo ?? spec.echo).filter((e) => e.rejection === undefined || !dropped.has(e.rejection));
    const forbid = forbidsFor([...ownForbid, ...(variant.forbid ?? [])], model).filter(
      (f) => !dropped.has(f.rejection),
    );
    const messageRules = [...(spec.messageRules ?? []), ...(variant.messageRules ?? [])].filter(
      (r) => !dropped.has(r.rejection),
    );
    out = { ...spec, echo, rejections, forbid, messageRules };
  }
  byModel.set(model, out);
  return out;
}
