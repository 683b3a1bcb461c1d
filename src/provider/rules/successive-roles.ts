import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../shared/findings/finding.js';
import { finding, roleOf } from './message-rule-parts.js';

type Successive = NonNullable<MessageRule['successive']>;

/**
 * Two items of the same role in a row, for the roles a provider will not see twice (DeepSeek reasoner's "successive
 * user or assistant messages (messages[0] and messages[1] ...)", Bedrock's "must alternate between user and assistant
 * roles"). Unlike `alternation`, a tool result between an assistant turn and the next breaks the run. `skip` roles are
 * not counted (a system message between two user messages). {before} is the first of the pair, {index} the second.
 */
export function successiveFindings(
  check: Successive,
  rule: MessageRule,
  items: readonly unknown[],
  list: string,
): Finding[] {
  let previous: { role: string; index: number } | undefined;
  for (const [index, item] of items.entries()) {
    const role = roleOf(item) ?? '';
    if ((check.skip ?? []).includes(role)) continue;
    if (previous !== undefined && previous.role === role && check.roles.includes(role))
      return [
        finding(
          rule,
          { index, before: previous.index, role, field: 'role', path: `${list}.${index}` },
          `${role} ${list} items ${previous.index} and ${index} follow one another`,
        ),
      ];
    previous = { role, index };
  }
  return [];
}
