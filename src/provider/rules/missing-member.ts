import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { finding, segmentsOf, valuesAt } from './message-rule-parts.js';

type Lacks = NonNullable<MessageRule['lacks']>;

/**
 * An object at a path that lacks a member (absent or null): DeepSeek refuses a function tool whose `parameters` is an
 * object with no `type`. Only an object that is there is judged: an item without the path says nothing (no source
 * shows how the provider answers a tool with no `parameters` at all). {name} is the string at `name` in the item.
 */
export function lacksFindings(check: Lacks, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  return items.flatMap((item, index) =>
    valuesAt(item, segmentsOf(check.path))
      .filter(({ value }) => isPlainObject(value) && (value[check.member] ?? null) === null)
      .map(({ at }) => {
        const path = [list, String(index), ...at].join('.');
        const name = check.name === undefined ? undefined : valuesAt(item, segmentsOf(check.name))[0]?.value;
        return finding(
          rule,
          { index, path, field: check.member, ...(typeof name === 'string' ? { name } : {}) },
          `${path} has no ${check.member}`,
        );
      }),
  );
}
