import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { assertValid, assertWithinLimits, INPUT_LIMITS } from './validate.js';

type Limits = { maxDepth: number; maxNodes: number; maxStringLength: number };

/** The limits read by recursion, as the rule says them: the first breach in document order, or none. */
function breaches(value: unknown, limits: Limits): { nodes: number; depthOrString: boolean } {
  let nodes = 0;
  let depthOrString = false;
  const visit = (v: unknown, depth: number) => {
    nodes++;
    if (typeof v === 'string') depthOrString ||= v.length > limits.maxStringLength;
    else if (typeof v === 'object' && v !== null) {
      if (depth >= limits.maxDepth) depthOrString = true;
      else for (const x of Object.values(v)) visit(x, depth + 1);
    }
  };
  visit(value, 0);
  return { nodes, depthOrString };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value a JSON pointer names. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === '/') return value;
  return pointer
    .slice(1)
    .split('/')
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], value);
}

describe('assertWithinLimits', () => {
  test('refuses exactly the values over a limit, and its pointer names a value that breaks one', () =>
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.record({
          maxDepth: fc.integer({ min: 1, max: 5 }),
          maxNodes: fc.integer({ min: 1, max: 60 }),
          maxStringLength: fc.integer({ min: 0, max: 8 }),
        }),
        (value, limits) => {
          const { nodes, depthOrString } = breaches(value, limits);
          let caught: unknown;
          try {
            assertWithinLimits(value, 'input.json', limits);
          } catch (err) {
            caught = err;
          }
          expect(caught !== undefined).toBe(depthOrString || nodes > limits.maxNodes);
          if (!(caught instanceof InputError) || /more than \d+ values/.test(caught.problem)) return;
          const pointer = caught.pointer;
          const breaks = (named: unknown, depth: number) =>
            (typeof named === 'string' && named.length > limits.maxStringLength) ||
            (typeof named === 'object' && named !== null && depth >= limits.maxDepth);
          // The root's pointer is written "/", as is its "" member's.
          const candidates: [unknown, number][] =
            pointer === '/'
              ? [[value, 0], ...(isRecord(value) && '' in value ? [[value[''], 1] as [unknown, number]] : [])]
              : [[at(value, pointer), pointer.split('/').length - 1]];
          expect(candidates.some(([named, depth]) => breaks(named, depth))).toBe(true);
        },
      ),
    ));

  it('walks an input once: a root read within limits is not walked again by assertValid, an edited copy is', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < INPUT_LIMITS.maxDepth + 2; i++) cursor = (cursor.next = {}) as Record<string, unknown>;
    expect(() => assertWithinLimits(deep, 'deep.json')).toThrow(/nests deeper than 256 levels/);
    const fine = { a: [1, 'two', { three: null }] };
    assertWithinLimits(fine, 'fine.json');
    expect(() => assertValid({ ...fine, deep }, 'routes.schema.json', 'copy.json')).toThrow(/nests deeper/);
  });
});
