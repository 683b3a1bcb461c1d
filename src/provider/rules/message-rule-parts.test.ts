import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { valuesAt } from './message-rule-parts.js';
import { atPointer } from './message-echo-judge.js';

/** The reading of a dotted path as a recursion over the segments (how valuesAt was first written). */
function reference(
  value: unknown,
  segments: readonly string[],
  at: string[] = [],
): Array<{ at: string[]; value: unknown }> {
  if (segments.length === 0) return [{ at, value }];
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (Array.isArray(value)) return value.flatMap((v, i) => reference(v, rest, [...at, String(i)]));
    if (isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => reference(v, rest, [...at, k]));
    return [];
  }
  if (Array.isArray(value) && /^\d+$/.test(head)) return reference(value[Number(head)], rest, [...at, head]);
  if (isPlainObject(value) && head in value) return reference(value[head], rest, [...at, head]);
  return [];
}

// Keys the generated bodies use, so paths often lead somewhere: message-like objects, arrays, indexes, an absent one.
const KEYS = ['messages', 'role', 'content', 'tool_calls', '0', '1', 'a', 'x/y', 'toString'] as const;
const body = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;
const path = fc.array(fc.constantFrom(...KEYS, '*', '2'), { maxLength: 4 });

describe('valuesAt', () => {
  test('finds what the recursive reading finds, in the same order, under the given prefix', () =>
    fc.assert(
      fc.property(body, path, fc.array(fc.constantFrom('p', 'q'), { maxLength: 2 }), (value, segments, prefix) => {
        expect(valuesAt(value, segments, prefix)).toEqual(reference(value, segments, prefix));
      }),
      { numRuns: 500 },
    ));
});

describe('atPointer', () => {
  test('reads the same value through a kept pointer as through a fresh one, escapes included', () =>
    fc.assert(
      fc.property(body, fc.array(fc.constantFrom(...KEYS), { maxLength: 3 }), (value, keys) => {
        const pointer = keys.map((k) => '/' + k.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
        const expected = keys.reduce<unknown>(
          (at, key) => (Array.isArray(at) ? at[Number(key)] : isPlainObject(at) ? at[key] : undefined),
          value,
        );
        expect(atPointer(value, pointer)).toEqual(expected);
        expect(atPointer(value, pointer)).toEqual(expected);
      }),
    ));
});
