import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { readShardFile, type ShardFile } from '../../services/shards/shard-file.js';

export interface ReadShard<F extends ShardFile = ShardFile> {
  /** As the user would name it: relative to the working directory. */
  file: string;
  data: F;
}

export interface ShardSet<F extends ShardFile = ShardFile> {
  kind: F['kind'];
  count: number;
  /** One per shard, in shard order 1..N. */
  shards: ReadShard<F>[];
}

const HINT = 'merge the files of one sharded run only: empty the folder between runs';

/** Code-point order, not locale order: the same on every machine. */
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every *.json under `dir` (artifact downloads put each shard in a folder of its own), in path order. */
function jsonFilesUnder(dir: string): string[] {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    throw new InputError(dir, '', 'no such folder', 'pass the folder the shard result files were downloaded into');
  }
  if (!stat.isDirectory())
    throw new InputError(dir, '', 'is not a folder', 'pass the folder holding the shard result files');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.json') && statSync(join(dir, name)).isFile())
    .map((name) => name.split(sep).join('/'))
    .sort(compare)
    .map((name) => join(dir, name));
}

/**
 * Reads the shard results in `dir` and checks they are exactly the N shards of one run: one kind, one N, each shard
 * once, every shard present. What they ran on (table, base, matrix, options) is the caller's to compare
 * (`sameRun`), as it differs by kind.
 */
export function readShardDir(dir: string, cwd: string = process.cwd()): ShardSet {
  const files = jsonFilesUnder(dir);
  if (files.length === 0)
    throw new InputError(
      dir,
      '',
      'holds no shard result (*.json)',
      'download every shard’s file into it first (check --shard i/N --shard-out FILE)',
    );
  const shown = (file: string) => relative(cwd, file) || file;
  const read: ReadShard[] = files.map((f) => ({ file: shown(f), data: readShardFile(shown(f)) }));
  const first = read[0]!;
  for (const r of read.slice(1)) {
    if (r.data.kind !== first.data.kind)
      throw new InputError(
        r.file,
        '/kind',
        `is a ${r.data.kind} shard, but ${first.file} is a ${first.data.kind} shard`,
        HINT,
      );
    if (r.data.shard.count !== first.data.shard.count)
      throw new InputError(
        r.file,
        '/shard/count',
        `is shard ${r.data.shard.index}/${r.data.shard.count}, but ${first.file} is shard ${first.data.shard.index}/${first.data.shard.count}: the files come from runs split ${first.data.shard.count} and ${r.data.shard.count} ways`,
        HINT,
      );
  }
  const count = first.data.shard.count;
  const byIndex = new Map<number, ReadShard>();
  for (const r of read) {
    if (r.data.shard.index > count)
      throw new InputError(r.file, '/shard/index', `is shard ${r.data.shard.index} of ${count}`, HINT);
    const seen = byIndex.get(r.data.shard.index);
    if (seen)
      throw new InputError(
        r.file,
        '/shard/index',
        `is shard ${r.data.shard.index}/${count} again (also ${seen.file})`,
        'keep one file per shard: a re-run shard replaces its old file',
      );
    byIndex.set(r.data.shard.index, r);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new InputError(
      dir,
      '',
      `holds ${byIndex.size} of ${count} shards: shard ${missing.map((i) => `${i}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
      'did a shard job fail before uploading its file? re-run it, then merge all of them',
    );
  return {
    kind: first.data.kind,
    count,
    shards: Array.from({ length: count }, (_, i) => byIndex.get(i + 1)!),
  };
}

/**
 * Refuses a shard whose run differs from the first shard's on any of `fields` (the table, the base, the matrix, the
 * options), naming the file and the first field that differs, in the words of `describe`.
 */
export function sameRun<F extends ShardFile>(
  set: ShardSet<F>,
  fields: ReadonlyArray<{ pointer: string; value: (f: F) => unknown; differs: (first: string) => string }>,
): void {
  const [first, ...rest] = set.shards;
  for (const r of rest) {
    for (const field of fields) {
      if (JSON.stringify(field.value(r.data)) !== JSON.stringify(field.value(first!.data)))
        throw new InputError(r.file, field.pointer, field.differs(first!.file), HINT);
    }
  }
}
