import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../shared/findings/finding.js';
import { appliesTo, finding, isKind, roleOf, segmentsOf, valuesAt } from './message-rule-parts.js';

type Blocks = NonNullable<MessageRule['blocks']>;

/**
 * Content blocks that may not share an item: Bedrock's "Conversation blocks and tool result blocks cannot be provided
 * in the same turn" (a toolResult beside text). A block's kind is its `type` or, for Bedrock and Gemini, the member it
 * holds. {path} is the item's blocks (`messages.2.content`).
 */
export function blocksFindings(check: Blocks, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  return items.flatMap((item, index) => {
    const role = roleOf(item);
    if (!appliesTo(check.roles, role)) return [];
    const blocks = valuesAt(item, segmentsOf(check.path)).map(({ value }) => value);
    const holds = blocks.some((b) => check.kinds.some((k) => isKind(b, k)));
    const beside = check.notBeside.filter((k) => blocks.some((b) => isKind(b, k)));
    if (!holds || beside.length === 0) return [];
    const path = [list, String(index), ...segmentsOf(check.path).filter((s) => s !== '*')].join('.');
    return [
      finding(
        rule,
        { index, role: role ?? '', path, field: beside[0]! },
        `${list} item ${index} holds ${check.kinds.join('/')} blocks beside ${beside.join('/')} blocks`,
      ),
    ];
  });
}
