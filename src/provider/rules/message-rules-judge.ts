import type { MessageRule, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { contestedMark } from './contested-mark.js';
import { conditionHolds } from './forbidden-fields.js';
import { appliesTo, finding, isEmpty, listed, roleOf, segmentsOf, valuesAt } from './message-rule-parts.js';
import { pairingFindings } from './tool-call-pairing.js';
import { successiveFindings } from './successive-roles.js';
import { endsFindings } from './conversation-ends.js';
import { atMostFindings } from './count-at-most.js';
import { blocksFindings } from './block-exclusion.js';
import { uniformFindings } from './uniform-values.js';
import { lacksFindings } from './missing-member.js';

type Fields = NonNullable<MessageRule['fields']>;
type JsonString = NonNullable<MessageRule['jsonString']>;
type Alternation = NonNullable<MessageRule['alternation']>;
type Contains = NonNullable<MessageRule['contains']>;
type Follows = NonNullable<MessageRule['follows']>;

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Zhipu: an assistant message with neither content nor tool_calls; llama.cpp's gpt-oss template: content and reasoning
 * beside tool calls; OpenAI and Ollama: content null (`null`); Anthropic: empty content anywhere but a final
 * assistant message (`exceptLast`).
 */
function fieldsFindings(check: Fields, rule: MessageRule, messages: readonly unknown[], list: string): Finding[] {
  const empty = check.empty ?? [];
  const nonEmpty = check.nonEmpty ?? [];
  const nulls = check.null ?? [];
  return messages.flatMap((message, index) => {
    const role = roleOf(message);
    if (!isPlainObject(message) || !appliesTo(check.roles, role)) return [];
    if (index === messages.length - 1 && (check.exceptLast ?? []).includes(role ?? '')) return [];
    if (!empty.every((f) => isEmpty(message[f])) || !nonEmpty.every((f) => !isEmpty(message[f]))) return [];
    if (!nulls.every((f) => message[f] === null)) return [];
    const what = [
      ...(nulls.length > 0 ? [`${listed(nulls)} null`] : []),
      ...(empty.length > 0
        ? [`${listed(empty)} ${empty.length === 2 ? 'both ' : empty.length > 2 ? 'all ' : ''}empty`]
        : []),
      ...(nonEmpty.length > 0 ? [`${listed(nonEmpty)} together`] : []),
    ].join(', ');
    return [
      finding(
        rule,
        { index, role: role ?? '', field: nulls[0] ?? empty[0] ?? nonEmpty[0] ?? '', path: `${list}.${index}` },
        `${list === 'messages' ? `${role ?? 'a'} message` : `${list} item`} ${index} has ${what}`,
      ),
    ];
  });
}

/** DashScope, MiniMax: a replayed tool call whose arguments are not JSON. {id} is the call's id. */
function jsonStringFindings(
  check: JsonString,
  rule: MessageRule,
  messages: readonly unknown[],
  list: string,
): Finding[] {
  const segments = check.path.split('.');
  return messages.flatMap((message, index) => {
    const role = roleOf(message);
    if (!appliesTo(check.roles, role)) return [];
    return valuesAt(message, segments)
      .filter(({ value }) => typeof value === 'string' && !parsesAsJson(value))
      .map(({ at }) => {
        const path = [list, String(index), ...at].join('.');
        // {id}: the id of the nearest object around the string that has one (MiniMax names the tool_call_id).
        const id = [...Array(at.length).keys()]
          .map((n) => valuesAt(message, at.slice(0, at.length - 1 - n))[0]?.value)
          .find((holder) => isPlainObject(holder) && typeof holder.id === 'string');
        return finding(
          rule,
          {
            index,
            role: role ?? '',
            field: at.at(-1) ?? '',
            path,
            ...(isPlainObject(id) ? { id: String(id.id) } : {}),
          },
          `${path} is not JSON`,
        );
      });
  });
}

/**
 * Hunyuan: user (or tool) and assistant take turns, starting and ending with a question. Only the
 * first message out of turn is named: after it, every later position is out of turn too.
 */
function alternationFindings(
  check: Alternation,
  rule: MessageRule,
  messages: readonly unknown[],
  list: string,
): Finding[] {
  const sideOf = (role: string | undefined) =>
    role === undefined
      ? undefined
      : check.ask.includes(role)
        ? 'ask'
        : check.answer.includes(role)
          ? 'answer'
          : undefined;
  let previous: { side: 'ask' | 'answer'; role: string; index: number } | undefined;
  for (const [index, message] of messages.entries()) {
    const role = roleOf(message);
    const side = sideOf(role);
    if (role === undefined || side === undefined || (check.skip ?? []).includes(role)) continue;
    if (isPlainObject(message) && (check.skipNonEmpty ?? []).some((f) => !isEmpty(message[f]))) continue;
    const outOfTurn =
      previous === undefined
        ? check.first !== undefined && side !== check.first
        : side === previous.side && !(role === previous.role && (check.repeatable ?? []).includes(role));
    if (outOfTurn) {
      const why =
        previous === undefined
          ? `the conversation must start with ${check.first === 'ask' ? check.ask.join('/') : check.answer.join('/')}`
          : `it follows ${previous.role} message ${previous.index}`;
      return [
        finding(
          rule,
          { index, role, field: 'role', path: `${list}.${index}`, ...(previous ? { before: previous.index } : {}) },
          `${role} message ${index} is out of turn: ${why}`,
        ),
      ];
    }
    previous = { side, role, index };
  }
  if (previous !== undefined && check.last !== undefined && previous.side !== check.last) {
    const { index, role } = previous;
    return [
      finding(
        rule,
        { index, role, field: 'role', path: `${list}.${index}` },
        `the conversation ends with ${role} message ${index}, not with ${(check.last === 'ask' ? check.ask : check.answer).join('/')}`,
      ),
    ];
  }
  return [];
}

/** DashScope: a conversation with no user message at all (a pipeline or a compaction that kept none). */
function containsFindings(check: Contains, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  if (items.some((item) => appliesTo(check.roles, roleOf(item)))) return [];
  return [finding(rule, { field: 'role', path: list }, `${list} holds no ${check.roles.join('/')} item`)];
}

/**
 * DashScope (and OpenAI's wording it copies): a tool result must answer a tool-call turn. Looks
 * back over `through` items (parallel results) to the item it must follow.
 */
function followsFindings(check: Follows, rule: MessageRule, items: readonly unknown[], list: string): Finding[] {
  const through = check.through ?? [];
  return items.flatMap((item, index) => {
    const role = roleOf(item);
    if (role === undefined || !check.roles.includes(role)) return [];
    if (check.having !== undefined && valuesAt(item, segmentsOf(check.having)).length === 0) return [];
    let before = index - 1;
    while (before >= 0 && through.includes(roleOf(items[before]) ?? '')) before -= 1;
    const previous = items[before];
    const answered =
      isPlainObject(previous) &&
      appliesTo(check.after.roles, roleOf(previous)) &&
      (check.after.nonEmpty ?? []).every((f) => !isEmpty(previous[f]));
    if (answered) return [];
    const what = `${check.after.roles.join('/')}${check.after.nonEmpty ? ` with ${listed(check.after.nonEmpty)}` : ''}`;
    return [
      finding(
        rule,
        {
          index,
          role,
          field: 'role',
          path: `${list}.${index}`,
          ...(check.id !== undefined && isPlainObject(item) ? { id: String(item[check.id] ?? '') } : {}),
        },
        `${role} ${list === 'messages' ? 'message' : 'item'} ${index} does not follow a ${what}`,
      ),
    ];
  });
}

/**
 * A rule the spec marks contested makes its findings contested, citing both sides (the rejection's own contested mark
 * is added by judgeRequest).
 */
function contestedBy(spec: ProviderSpec, rule: MessageRule, found: Finding): Finding {
  if (!rule.contested) return found;
  return { ...found, ...contestedMark(rule.contested, spec.rejections[rule.rejection]?.sources ?? []) };
}

/**
 * The spec's per-message rules (`messageRules`) over a chat body, one generic judge for what
 * providers check item by item: fields that may not all be empty (or all be present), strings
 * that must be JSON, the order of roles, a role the list must hold, and what an item must
 * follow. A rule walks `messages` unless it names another top-level list (`tools`). Findings
 * come rule by rule, each rule's in item order.
 */
export function judgeMessageRules(spec: ProviderSpec, body: unknown): Finding[] {
  if (!isPlainObject(body) || !spec.messageRules?.length) return [];
  return spec.messageRules.flatMap((rule) => {
    if (!(rule.whenBody ?? []).every((c) => conditionHolds(body, c))) return [];
    if ((rule.unlessBody ?? []).some((c) => conditionHolds(body, c))) return [];
    // A cap over the whole body walks no list.
    if (rule.atMost) return atMostFindings(rule.atMost, rule, body).map((found) => contestedBy(spec, rule, found));
    const list = rule.list ?? 'messages';
    const items = body[list];
    if (!Array.isArray(items)) return [];
    return [
      ...(rule.fields ? fieldsFindings(rule.fields, rule, items, list) : []),
      ...(rule.jsonString ? jsonStringFindings(rule.jsonString, rule, items, list) : []),
      ...(rule.alternation ? alternationFindings(rule.alternation, rule, items, list) : []),
      ...(rule.contains ? containsFindings(rule.contains, rule, items, list) : []),
      ...(rule.follows ? followsFindings(rule.follows, rule, items, list) : []),
      ...(rule.pairs ? pairingFindings(rule.pairs, rule, items, list) : []),
      ...(rule.successive ? successiveFindings(rule.successive, rule, items, list) : []),
      ...(rule.ends ? endsFindings(rule.ends, rule, items, list) : []),
      ...(rule.blocks ? blocksFindings(rule.blocks, rule, items, list) : []),
      ...(rule.uniform ? uniformFindings(rule.uniform, rule, items, list) : []),
      ...(rule.lacks ? lacksFindings(rule.lacks, rule, items, list) : []),
    ].map((found) => contestedBy(spec, rule, found));
  });
}
