import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../shared/findings/finding.js';
import { finding, segmentsOf, valuesAt } from './message-rule-parts.js';

type AtMost = NonNullable<MessageRule['atMost']>;

/**
 * A cap on how many things a whole body holds, counted over every dotted path in `paths` (from the body's root):
 * Anthropic's four cache breakpoints across system, tools and messages; MiniMax's one system message (with `equals`,
 * only values equal to it count). {count} is how many were found, {max} the cap.
 */
export function atMostFindings(check: AtMost, rule: MessageRule, body: Record<string, unknown>): Finding[] {
  const found = check.paths.flatMap((path) =>
    valuesAt(body, segmentsOf(path))
      .filter(({ value }) => value !== undefined && value !== null)
      .filter(({ value }) => check.equals === undefined || JSON.stringify(value) === JSON.stringify(check.equals))
      .map(({ at }) => at.join('.')),
  );
  if (found.length <= check.max) return [];
  const path = found[check.max]!;
  return [
    finding(
      rule,
      { count: found.length, max: check.max, path, field: path.split('.').at(-1) ?? '' },
      `${found.length} of ${check.paths.join(', ')} where at most ${check.max} are taken (the first past the cap: ${path})`,
    ),
  ];
}
