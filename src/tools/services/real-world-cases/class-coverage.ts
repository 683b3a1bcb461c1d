import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { RULE_CLASSES, type RuleClass } from '../../../shared/provider-specs/rule-class.js';
import { specRules } from './spec-rules.js';

/** One rule class of one provider spec: how many of its rules are of the class, and how many real cases. */
export interface ClassCounts {
  rules: number;
  cases: number;
}

export interface ClassCoverage {
  /** Per spec id, per class the spec has rules in or cases of (in the schema's order of classes). */
  bySpec: Record<string, Partial<Record<RuleClass, ClassCounts>>>;
  /** `<spec id>/<class>` for each class a spec has rules in and no real case of: where the corpus needs one next. */
  missing: string[];
}

/**
 * Whether the corpus covers each provider spec in each rule class the spec has rules in (the class of a rule:
 * rule-class-of.ts): a spec with a history rule and no history case has a rule no real report tested. A case counts
 * for the spec it names in the class the case file gives (a gateway's case counts for the gateway), and for each
 * spec and class of a rule the mock's answer to it fired (`fired`: `<spec id>/<rejection id>`), since a case filed
 * under one class can test a rule the spec files under another (a dropped signed block is both an echo and a
 * signature matter). Each case counts once per spec and class.
 */
export function classCoverage(
  specs: readonly ProviderSpec[],
  cases: ReadonlyArray<{ provider: string; ruleClass: RuleClass; fired?: readonly string[] }>,
): ClassCoverage {
  const bySpec: ClassCoverage['bySpec'] = {};
  const at = (spec: string, ruleClass: RuleClass) => ((bySpec[spec] ??= {})[ruleClass] ??= { rules: 0, cases: 0 });
  const classOf = new Map<string, RuleClass>();
  for (const spec of specs) {
    bySpec[spec.id] ??= {};
    for (const rule of specRules(spec))
      if (rule.ruleClass) {
        at(spec.id, rule.ruleClass).rules++;
        classOf.set(rule.key, rule.ruleClass);
      }
  }
  const known = new Set(specs.map((s) => s.id));
  for (const c of cases) {
    const pairs = new Set<string>();
    if (known.has(c.provider)) pairs.add(`${c.provider}/${c.ruleClass}`);
    for (const key of c.fired ?? []) {
      const ruleClass = classOf.get(key);
      if (ruleClass) pairs.add(`${key.slice(0, key.indexOf('/'))}/${ruleClass}`);
    }
    for (const pair of pairs) {
      const cut = pair.indexOf('/');
      at(pair.slice(0, cut), pair.slice(cut + 1) as RuleClass).cases++;
    }
  }
  const missing: string[] = [];
  for (const [spec, classes] of Object.entries(bySpec))
    for (const k of RULE_CLASSES)
      if (classes[k] && classes[k].rules > 0 && classes[k].cases === 0) missing.push(`${spec}/${k}`);
  // Each spec's classes in the schema's order, so the printed rows read alike.
  for (const [spec, classes] of Object.entries(bySpec))
    bySpec[spec] = Object.fromEntries(RULE_CLASSES.filter((k) => classes[k]).map((k) => [k, classes[k]!]));
  return { bySpec, missing: missing.sort() };
}

/**
 * One line per spec: `groq  reasoning-field 2 rules/5 cases, request-schema 3/4, model-and-endpoint 0/3`; a class
 * with rules and no case is marked `!`.
 */
export function formatClassCoverage(coverage: ClassCoverage): string {
  const rows = Object.entries(coverage.bySpec)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([spec, classes]) => {
      const cells = Object.entries(classes).map(
        ([k, c]) => `${c.rules > 0 && c.cases === 0 ? '!' : ''}${k} ${c.rules}/${c.cases}`,
      );
      return `${spec.padEnd(20)} ${cells.join(', ')}`;
    });
  return [
    'per provider spec, each rule class: rules/cases (! a class the spec has rules in and no case of):',
    ...rows,
    '',
    `spec and class pairs with rules and no case (${coverage.missing.length}):${coverage.missing.length ? '' : ' none'}`,
    ...coverage.missing.map((m) => `  ${m}`),
  ].join('\n');
}
