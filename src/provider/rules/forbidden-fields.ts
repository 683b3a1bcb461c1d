import type { BodyCondition, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { Finding } from '../../shared/findings/finding.js';
import { contestedMark } from './contested-mark.js';
import { valuesAt } from './message-rule-parts.js';
import { atPointer } from './message-echo-judge.js';

/** A spec value's JSON, written once per value object (conditions are spec data, read for every request). */
const jsonOfSpecValue = new WeakMap<object, string | undefined>();
const jsonOf = (value: unknown): string | undefined => {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (!jsonOfSpecValue.has(value)) jsonOfSpecValue.set(value, JSON.stringify(value));
  return jsonOfSpecValue.get(value);
};
const sameJson = (a: unknown, expected: unknown) => JSON.stringify(a) === jsonOf(expected);

/** Each `matches` pattern compiled once: the specs' patterns are few, and every request is tested against them. */
const patterns = new Map<string, RegExp>();
const patternOf = (source: string): RegExp => {
  let pattern = patterns.get(source);
  if (!pattern) patterns.set(source, (pattern = new RegExp(source)));
  return pattern;
};

/** Each rule path's segments, split once. */
const segmentsByPath = new Map<string, readonly string[]>();
const pathSegments = (path: string): readonly string[] => {
  let segments = segmentsByPath.get(path);
  if (!segments) segmentsByPath.set(path, (segments = path.split('.')));
  return segments;
};

/**
 * Whether a body condition holds: every test it gives holds of the value at its pointer (`exists`
 * presence, `equals` / `in` / `notIn` JSON values, `matches` a string, `below` / `atLeast` / `above` /
 * `atLeastPointer` a number). A condition with no test but the pointer asks for `equals: undefined`
 * (the value is absent), as it always did.
 */
export function conditionHolds(body: unknown, condition: BodyCondition): boolean {
  const value = atPointer(body, condition.pointer);
  const { exists, equals, in: among, notIn, matches, below, atLeast, above, atLeastPointer } = condition;
  const number = typeof value === 'number' ? value : undefined;
  const tests: boolean[] = [];
  if (exists !== undefined) tests.push((value !== undefined) === exists);
  if ('equals' in condition) tests.push(sameJson(value, equals));
  if (among !== undefined) tests.push(among.some((v) => sameJson(value, v)));
  if (notIn !== undefined) tests.push(value !== undefined && !notIn.some((v) => sameJson(value, v)));
  if (matches !== undefined) tests.push(typeof value === 'string' && patternOf(matches).test(value));
  if (below !== undefined) tests.push(number !== undefined && number < below);
  if (atLeast !== undefined) tests.push(number !== undefined && number >= atLeast);
  if (above !== undefined) tests.push(number !== undefined && number > above);
  if (atLeastPointer !== undefined) {
    const other = atPointer(body, atLeastPointer);
    tests.push(number !== undefined && typeof other === 'number' && number >= other);
  }
  if (tests.length === 0) return value === undefined;
  return tests.every(Boolean);
}

/** The offending value as a rejection names it: a string as it is, anything else as JSON. */
function shownValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Fields a provider refuses for the model in hand (spec `forbid`, usually from a model variant):
 * Groq answers "`messages[3].reasoning`: reasoning is not supported with this model" on models
 * without reasoning, while its reasoning models take the same field.
 */
export function judgeForbiddenFields(spec: ProviderSpec, body: unknown): Finding[] {
  return (spec.forbid ?? []).flatMap((rule) => {
    // A rule scoped to `models` is resolved by specForModel; unresolved, the model is unknown.
    if (rule.models !== undefined) return [];
    if (
      !(rule.whenBody ?? []).every((c) => conditionHolds(body, c)) ||
      (rule.unlessBody ?? []).some((c) => conditionHolds(body, c))
    )
      return [];
    return valuesAt(body, pathSegments(rule.path)).flatMap(({ at: location, value }) => {
      const indexes = location.filter((s) => /^\d+$/.test(s));
      const firstIndex = indexes[0];
      const list = location[0] !== undefined && isPlainObject(body) ? body[location[0]] : undefined;
      const item = Array.isArray(list) && firstIndex !== undefined ? list[Number(firstIndex)] : undefined;
      const role = isPlainObject(item) && typeof item.role === 'string' ? item.role : undefined;
      if (rule.ifType !== undefined && jsonType(value) !== rule.ifType) return [];
      if (rule.roles !== undefined && (role === undefined || !rule.roles.includes(role))) return [];
      return [
        {
          rule: rule.rule ?? 'strict-schema',
          rejection: rule.rejection,
          params: {
            path: location.join('.'),
            field: location.at(-1) ?? '',
            value: shownValue(value),
            ...(firstIndex !== undefined ? { index: Number(firstIndex) } : {}),
            ...(indexes[1] !== undefined ? { block: Number(indexes[1]) } : {}),
            ...(role !== undefined ? { role } : {}),
          },
          detail: `${location.join('.')} is refused${rule.notes ? ` (${rule.notes})` : ''}`,
          ...(rule.contested ? contestedMark(rule.contested, spec.rejections[rule.rejection]?.sources ?? []) : {}),
        },
      ];
    });
  });
}
