import type { MessageRule, ToolCallSite } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { finding, isKind, roleOf, segmentsOf, valuesAt } from './message-rule-parts.js';

type Pairs = NonNullable<MessageRule['pairs']>;

/** Whether an item is of a site's roles and types. */
function matchesSite(site: { roles?: string[]; types?: string[] }, item: unknown): item is Record<string, unknown> {
  if (!isPlainObject(item)) return false;
  if (site.roles !== undefined && !site.roles.includes(roleOf(item) ?? '')) return false;
  return site.types === undefined || site.types.includes(typeof item.type === 'string' ? item.type : '');
}

/** The ids of the calls (or results) one item holds at a site; none when the item is not of the site's roles/types. */
function idsAt(site: ToolCallSite, item: unknown): string[] | undefined {
  if (!matchesSite(site, item)) return undefined;
  const ids = valuesAt(item, segmentsOf(site.path))
    .map(({ value }) => value)
    .filter((value) => site.kind === undefined || isKind(value, site.kind))
    .flatMap((value) => (isPlainObject(value) && typeof value[site.id] === 'string' ? [value[site.id] as string] : []));
  return ids.length > 0 ? ids : undefined;
}

/**
 * The item a run of results answers: looking back from `index` over items that hold results and no calls (OpenAI's
 * parallel tool messages, Anthropic's consecutive user turns, which it merges), the first one before them.
 */
function answeredItem(calls: Array<string[] | undefined>, results: Array<string[] | undefined>, index: number) {
  let before = index - 1;
  while (before >= 0 && results[before] !== undefined && calls[before] === undefined) before -= 1;
  return before;
}

function unansweredCalls(
  check: Pairs,
  calls: Array<string[] | undefined>,
  results: Array<string[] | undefined>,
  list: string,
  rule: MessageRule,
): Finding[] {
  return calls.flatMap((ids, index) => {
    // A call turn that ends the history is a prefill or a turn in progress, not a broken pairing.
    if (ids === undefined || index === calls.length - 1) return [];
    const answered: string[] = [];
    for (let next = index + 1; next < calls.length && results[next] !== undefined; next += 1) {
      answered.push(...results[next]!);
      if (calls[next] !== undefined) break;
    }
    const missing = ids.filter((id) => !answered.includes(id));
    if (missing.length === 0 || (check.match === 'count' && answered.length >= ids.length)) return [];
    return [
      finding(
        rule,
        { index, id: missing.join(', '), count: missing.length, path: `${list}.${index}` },
        `the tool calls ${missing.join(', ')} of ${list} item ${index} have no result right after it`,
      ),
    ];
  });
}

function unmatchedResults(
  check: Pairs,
  items: readonly unknown[],
  calls: Array<string[] | undefined>,
  results: Array<string[] | undefined>,
  list: string,
  rule: MessageRule,
): Finding[] {
  const unread = items.map((item) => check.unreadCalls !== undefined && matchesSite(check.unreadCalls, item));
  return results.flatMap((ids, index) => {
    if (ids === undefined) return [];
    // A reference to a stored call may be the call this result answers: not judged.
    if (check.refuse === 'orphan-results' && unread.slice(0, index).some(Boolean)) return [];
    const source = check.within === 'before' ? calls.slice(0, index) : [calls[answeredItem(calls, results, index)]];
    const known = new Set(source.flatMap((c) => c ?? []));
    if (check.refuse === 'excess-results') {
      const offered = check.within === 'before' ? known.size : (source[0]?.length ?? 0);
      if (ids.length <= offered) return [];
      return [
        finding(
          rule,
          { index, count: ids.length, path: `${list}.${index}` },
          `${list} item ${index} holds ${ids.length} tool results for ${offered} tool calls before it`,
        ),
      ];
    }
    const orphans = ids.filter((id) => !known.has(id));
    if (orphans.length === 0) return [];
    if (check.match === 'count') {
      // Only results that outnumber the calls they can answer: in the item they answer, or all so far.
      const offered = check.within === 'before' ? known.size : (source[0]?.length ?? 0);
      const given = check.within === 'before' ? results.slice(0, index + 1).flatMap((r) => r ?? []).length : ids.length;
      if (given <= offered) return [];
    }
    return [
      finding(
        rule,
        { index, id: orphans.join(', '), count: orphans.length, path: `${list}.${index}` },
        `the tool results ${orphans.join(', ')} of ${list} item ${index} answer no tool call ${check.within === 'before' ? 'before it' : 'in the item before them'}`,
      ),
    ];
  });
}

/**
 * Tool calls and their results, paired by id (OpenAI's tool_calls and tool messages, Anthropic's tool_use and
 * tool_result blocks, Bedrock's toolUse and toolResult, Responses' function_call and function_call_output items).
 * A rule refuses one of three things: calls with no result in the items right after them, results whose id matches no
 * call (in the item they answer, or anywhere before), or more results than the calls they answer. {id} names the
 * offending ids (comma-separated), {count} how many. With `match: count`, a mismatch of ids is refused only where
 * results and calls differ in number too: the engine's scenarios script their result ids, which differ from the ids
 * a recorded (or Gemini's id-less) call carries.
 */
export function pairingFindings(check: Pairs, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  const calls = items.map((item) => idsAt(check.calls, item));
  const results = items.map((item) => idsAt(check.results, item));
  return check.refuse === 'unanswered-calls'
    ? unansweredCalls(check, calls, results, list, rule)
    : unmatchedResults(check, items, calls, results, list, rule);
}
