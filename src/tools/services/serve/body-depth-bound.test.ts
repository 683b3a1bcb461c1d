import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { couldNestDeeperThan } from './body-depth-bound.js';
import { bodyDepthRefusal, MAX_BODY_DEPTH } from './request-limits.js';

describe('the bracket bound serve checks before the depth walk', () => {
  it('says "could" for a body nested past the limit, and "no" for a flat agent request', () => {
    const deep = Buffer.from('['.repeat(MAX_BODY_DEPTH + 1) + ']'.repeat(MAX_BODY_DEPTH + 1));
    expect(couldNestDeeperThan(deep, MAX_BODY_DEPTH)).toBe(true);
    const flat = Buffer.from(JSON.stringify({ messages: [{ role: 'user', content: 'hi [{' }] }));
    expect(couldNestDeeperThan(flat, MAX_BODY_DEPTH)).toBe(false);
  });

  test('never says "no" for a body the depth walk refuses', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        const text = JSON.stringify(value);
        const max = 4;
        if (!couldNestDeeperThan(Buffer.from(text), max)) {
          // With at most `max` opening brackets the value cannot nest deeper than `max`.
          expect(depth(value)).toBeLessThanOrEqual(max);
        }
        if (couldNestDeeperThan(Buffer.from(text), MAX_BODY_DEPTH) === false)
          expect(bodyDepthRefusal(value)).toBeUndefined();
      }),
    );
  });
});

const depth = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
