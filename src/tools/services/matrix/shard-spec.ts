import { InputError } from '../../../shared/errors/input-error.js';

/** One machine's part of a sharded run: shard `index` (1-based) of `count`. */
export interface ShardSpec {
  index: number;
  count: number;
}

const HINT = 'give i/N with whole numbers 1 <= i <= N, e.g. --shard 2/4 on the second of four machines';

/** Reads `--shard i/N`; anything else (0/3, 4/3, a/b, 1/0, 1.5/2) is bad input naming the value. */
export function parseShard(value: string, flag = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!m) throw new InputError(flag, '', `"${value}" is not of the form i/N`, HINT);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1) throw new InputError(flag, '', `"${value}" has no shards (N must be at least 1)`, HINT);
  if (index < 1 || index > count)
    throw new InputError(flag, '', `"${value}": shard ${index} is outside 1..${count}`, HINT);
  return { index, count };
}

export const describeShard = (s: ShardSpec): string => `${s.index}/${s.count}`;
