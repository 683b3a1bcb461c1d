import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { finding, roleOf } from './message-rule-parts.js';

type Ends = NonNullable<MessageRule['ends']>;

/**
 * The role a conversation must start or end on (`skip` roles not counted): DeepSeek reasoner's first message after
 * the system message, Mistral's and Claude 4.6's last message (no assistant prefill), unless the last item carries
 * `lastUnless` (Mistral's `prefix: true`). Only the first of the two that fails is named.
 */
export function endsFindings(check: Ends, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  const counted = [...items.entries()].filter(([, item]) => !(check.skip ?? []).includes(roleOf(item) ?? ''));
  const head = counted[0];
  const tail = counted.at(-1);
  if (check.first && head && !check.first.includes(roleOf(head[1]) ?? '')) {
    const [index, item] = head;
    const role = roleOf(item) ?? '';
    return [
      finding(
        rule,
        { index, role, field: 'role', path: `${list}.${index}` },
        `the conversation starts with ${role} ${list} item ${index}, not ${check.first.join('/')}`,
      ),
    ];
  }
  if (check.last && tail && !check.last.includes(roleOf(tail[1]) ?? '')) {
    const [index, item] = tail;
    const role = roleOf(item) ?? '';
    const exempt =
      check.lastUnless !== undefined &&
      isPlainObject(item) &&
      JSON.stringify(item[check.lastUnless.field]) === JSON.stringify(check.lastUnless.equals);
    if (!exempt)
      return [
        finding(
          rule,
          { index, role, field: 'role', path: `${list}.${index}` },
          `the conversation ends with ${role} ${list} item ${index}, not ${check.last.join('/')}`,
        ),
      ];
  }
  return [];
}
