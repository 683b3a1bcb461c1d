import type { Rejection } from '../../../shared/provider-specs/provider-spec.js';
import type { RuleClass } from '../../../shared/provider-specs/rule-class.js';

/** Where a spec's data names a rejection: the section, and for a `forbid` entry the dotted path it forbids. */
export interface RuleReference {
  section: string;
  path?: string;
}

/** The sections whose every rule is of one class, whatever the rejection's kind. */
const SECTION_CLASS: Record<string, RuleClass> = {
  echo: 'reasoning-echo',
  messageRules: 'history-structure',
  parameters: 'reasoning-parameters',
  models: 'model-and-endpoint',
  endpoint: 'model-and-endpoint',
};

/** Rejection kinds that say the class by themselves. */
const KIND_CLASS: Partial<Record<NonNullable<Rejection['kind']>, RuleClass>> = {
  'invalid-signature': 'reasoning-signature',
  'missing-signature': 'reasoning-signature',
  'modified-reasoning': 'reasoning-signature',
  'missing-reasoning': 'reasoning-echo',
};

/** A dotted forbid path whose last key is one of the spec's reasoning carriers (`messages.*.reasoning_content`). */
const onCarrier = (path: string | undefined, carriers: readonly string[]) =>
  path !== undefined && carriers.includes(path.split('.').at(-1)!);

/**
 * The rule class of one spec rule: the rejection's own `ruleClass` where the spec says it; else the kind of refusal
 * (a signature refused is `reasoning-signature` wherever it is named); else the section naming it (an `echo` rule is
 * `reasoning-echo`, a `messageRules` one `history-structure`); an unknown key or malformed member refused by the
 * schema or a `forbid` is `request-schema`, or `reasoning-field` when the forbidden key is a reasoning carrier of the
 * spec; any other `forbid` is a parameter constraint. `undefined` when nothing says: a rule only a family judge
 * applies (`judge`) must then carry `ruleClass` in the spec, and a gateway's envelope (the answer its upstream's
 * refusal is wrapped in, counted under the upstream's spec) has no class of its own.
 */
export function ruleClassOf(
  rejection: Pick<Rejection, 'kind' | 'ruleClass'> | undefined,
  references: readonly RuleReference[],
  carriers: readonly string[],
): RuleClass | undefined {
  if (rejection?.ruleClass) return rejection.ruleClass;
  const byKind = rejection?.kind && KIND_CLASS[rejection.kind];
  if (byKind) return byKind;
  for (const { section } of references) if (SECTION_CLASS[section]) return SECTION_CLASS[section];
  const forbids = references.filter((r) => r.section === 'forbid');
  const refusesMember = rejection?.kind === 'unknown-field' || rejection?.kind === 'malformed-body';
  if (forbids.length > 0) {
    if (rejection?.kind === 'unknown-field' && forbids.every((f) => onCarrier(f.path, carriers)))
      return 'reasoning-field';
    return refusesMember ? 'request-schema' : 'reasoning-parameters';
  }
  if (references.some((r) => r.section === 'schema')) return 'request-schema';
  return undefined;
}
