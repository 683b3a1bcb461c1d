import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keysOfShard, matrixFingerprint, type ShardItem } from './deal-shards.js';

const items = fc.uniqueArray(fc.record({ key: fc.string({ minLength: 1, maxLength: 12 }), heavy: fc.boolean() }), {
  selector: (i) => i.key,
  maxLength: 60,
});

const dealt = (all: ShardItem[], count: number) =>
  Array.from({ length: count }, (_, i) => keysOfShard(all, { index: i + 1, count }));

describe('dealing scenario runs to shards', () => {
  it('puts every key in exactly one shard', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 1, max: 9 }), (all, count) => {
        const shards = dealt(all, count);
        const union = shards.flatMap((s) => [...s]).sort();
        expect(union).toEqual(all.map((i) => i.key).sort());
      }),
    );
  });

  it('keeps shards within one key of each other, heavy keys and all keys alike', () => {
    fc.assert(
      fc.property(items, fc.integer({ min: 1, max: 9 }), (all, count) => {
        const heavy = new Set(all.filter((i) => i.heavy).map((i) => i.key));
        const shards = dealt(all, count);
        const sizes = shards.map((s) => s.size);
        const heavySizes = shards.map((s) => [...s].filter((k) => heavy.has(k)).length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        expect(Math.max(...heavySizes) - Math.min(...heavySizes)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('depends on the keys only, not on the order they were found in', () => {
    fc.assert(
      fc.property(
        items.chain((all) => fc.tuple(fc.constant(all), fc.shuffledSubarray(all, { minLength: all.length }))),
        fc.integer({ min: 1, max: 9 }),
        ([all, shuffled], count) => {
          expect(dealt(shuffled, count)).toEqual(dealt(all, count));
          expect(matrixFingerprint(shuffled)).toBe(matrixFingerprint(all));
        },
      ),
    );
  });

  it('fingerprints another matrix differently', () => {
    const a = [
      { key: 's1@deepseek', heavy: true },
      { key: 's1@groq', heavy: false },
    ];
    expect(matrixFingerprint(a)).not.toBe(matrixFingerprint([...a, { key: 's2@groq', heavy: true }]));
    expect(matrixFingerprint(a)).not.toBe(matrixFingerprint([{ ...a[0]!, heavy: false }, a[1]!]));
  });
});
