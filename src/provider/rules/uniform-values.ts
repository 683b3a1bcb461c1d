import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../shared/findings/finding.js';
import { finding, segmentsOf, valuesAt } from './message-rule-parts.js';

type Uniform = NonNullable<MessageRule['uniform']>;

/**
 * One value at a path across every item of the list: Cerebras refuses tools with mixed values for `strict`. Items
 * without the value are not counted (no source shows an absent `strict` beside an explicit one). {index} is the first
 * item that differs from the first value.
 */
export function uniformFindings(check: Uniform, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  const segments = segmentsOf(check.path);
  const values = items.flatMap((item, index) =>
    valuesAt(item, segments).map(({ value }) => ({ index, value: JSON.stringify(value) })),
  );
  const first = values[0];
  const differs = values.find((v) => v.value !== first?.value);
  if (first === undefined || differs === undefined) return [];
  const path = `${list}.${differs.index}.${check.path}`;
  return [
    finding(
      rule,
      { index: differs.index, path, field: segments.at(-1) ?? '' },
      `${path} is ${differs.value} where ${list}.${first.index}.${check.path} is ${first.value}`,
    ),
  ];
}
