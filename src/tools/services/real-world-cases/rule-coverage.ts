import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { RULE_CLASSES } from '../../../shared/provider-specs/rule-class.js';
import { specRules, type SpecRule } from './spec-rules.js';

/** How many of a group's spec rules some real case fires. */
export interface CoverageCounts {
  rules: number;
  fired: number;
}

export interface RuleCoverage {
  total: CoverageCounts;
  byProvider: Record<string, CoverageCounts>;
  /** Per section of the spec data naming the rule (a rule named from two sections counts in both). */
  byKind: Record<string, CoverageCounts>;
  /** Per rule class of the rule (rule-class-of.ts); a gateway envelope, which has none, counts in no class. */
  byClass: Record<string, CoverageCounts>;
  /** The rules no real case fires, `<spec id>/<rejection id>`, sorted: where the corpus needs a case next. */
  unfired: string[];
}

const empty = (): CoverageCounts => ({ rules: 0, fired: 0 });

function count(into: CoverageCounts, fired: boolean): void {
  into.rules++;
  if (fired) into.fired++;
}

/**
 * The share of the specs' rules (spec-rules.ts) that some real case fires: the mock, answering the case's request,
 * reported a finding naming the rule (a refusal, or a contested rule it answered leniently). `firedKeys` are the
 * `<spec id>/<rejection id>` keys of those findings; a key naming no rule of the given specs is ignored.
 */
export function ruleCoverage(specs: readonly ProviderSpec[], firedKeys: Iterable<string>): RuleCoverage {
  const fired = new Set(firedKeys);
  const rules: SpecRule[] = specs.flatMap((s) => specRules(s));
  const coverage: RuleCoverage = { total: empty(), byProvider: {}, byKind: {}, byClass: {}, unfired: [] };
  for (const rule of rules) {
    const hit = fired.has(rule.key);
    count(coverage.total, hit);
    count((coverage.byProvider[rule.provider] ??= empty()), hit);
    for (const kind of rule.kinds) count((coverage.byKind[kind] ??= empty()), hit);
    if (rule.ruleClass) count((coverage.byClass[rule.ruleClass] ??= empty()), hit);
    if (!hit) coverage.unfired.push(rule.key);
  }
  coverage.unfired.sort();
  return coverage;
}

const percent = (c: CoverageCounts) => (c.rules === 0 ? '-' : `${Math.round((100 * c.fired) / c.rules)}%`);

/** One line per group: `anthropic   9/16 rules fired by a case (56%)`. */
export function formatCoverage(coverage: RuleCoverage): string {
  const line = (name: string, c: CoverageCounts) =>
    `${name.padEnd(20)} ${String(c.fired).padStart(3)}/${String(c.rules).padEnd(3)} rules fired by a case (${percent(c)})`;
  const sorted = (groups: Record<string, CoverageCounts>) =>
    Object.entries(groups)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, c]) => line(name, c));
  return [
    'per provider spec:',
    ...sorted(coverage.byProvider),
    '',
    'per section of the spec data naming the rule (judge: applied by a family judge, named by no data):',
    ...sorted(coverage.byKind),
    '',
    'per rule class of the rule:',
    ...RULE_CLASSES.filter((k) => coverage.byClass[k]).map((k) => line(k, coverage.byClass[k]!)),
    '',
    line('total', coverage.total),
  ].join('\n');
}
