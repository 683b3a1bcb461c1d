import { createHash } from 'node:crypto';
import { InvariantError } from '../../../shared/errors/invariant-error.js';
import type { ShardSpec } from './shard-spec.js';

/** A unit of sharded work: its stable key, and whether it costs anything (a not-applicable run costs nothing). */
export interface ShardItem {
  key: string;
  heavy: boolean;
}

/** Code-point order, not locale order: the same on every machine. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The keys of the whole matrix in dealing order: the heavy ones sorted by key, then the light ones sorted by key.
 * Only the keys decide the order, never the order the files were found in (docs/decisions/0072).
 */
export function dealingOrder(items: readonly ShardItem[]): string[] {
  const keys = (heavy: boolean) =>
    items
      .filter((i) => i.heavy === heavy)
      .map((i) => i.key)
      .sort(compare);
  return [...keys(true), ...keys(false)];
}

/**
 * The keys one shard runs: the dealing order dealt round-robin, position p to shard (p mod N) + 1. Every key goes
 * to exactly one shard, and shards differ by at most one heavy key and one key in all.
 */
export function keysOfShard(items: readonly ShardItem[], shard: ShardSpec): Set<string> {
  const order = dealingOrder(items);
  if (new Set(order).size !== order.length) throw new InvariantError('internal: a shard key appears twice');
  return new Set(order.filter((_, p) => p % shard.count === shard.index - 1));
}

/**
 * A fingerprint of the whole matrix (every key and its weight, in dealing order): shards of different matrices do
 * not merge.
 */
export function matrixFingerprint(items: readonly ShardItem[]): string {
  const heavy = new Set(items.filter((i) => i.heavy).map((i) => i.key));
  return createHash('sha256')
    .update(
      dealingOrder(items)
        .map((k) => `${heavy.has(k) ? '+' : '-'}${k}`)
        .join('\n'),
    )
    .digest('hex');
}
