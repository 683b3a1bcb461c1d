import { finishRun } from '../../services/agent-runner/finish-run.js';
import type { RunResult, SessionResult } from '../../services/agent-runner/run-agent.js';
import { servedSpecs } from '../../services/agent-runner/served-specs.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { loadProviderSpecs, defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import { sameRun, type ShardSet } from './read-shard-dir.js';
import type { RunShardFile } from '../../services/shards/shard-file.js';

/** The shards of one `run --shard i/N`, their sessions put back in the order one unsharded run plays them. */
export function mergedRunResult(set: ShardSet<RunShardFile>, dir: string): RunResult {
  const first = set.shards[0]!.data;
  sameRun(set, [
    {
      pointer: '/matrix/routesSha256',
      value: (f) => [f.matrix.routesFile, f.matrix.routesSha256],
      differs: (other) => `was made from another route table than ${other} (${first.matrix.routesFile})`,
    },
    {
      pointer: '/matrix/sessions',
      value: (f) => f.matrix.sessions,
      differs: (other) => `split other sessions than ${other} (${first.matrix.sessions.join(', ')})`,
    },
    {
      pointer: '/matrix/suite',
      value: (f) => f.matrix.suite,
      differs: (other) => `ran another agent than ${other} (${first.matrix.suite})`,
    },
    {
      pointer: '/matrix/options',
      value: (f) => f.matrix.options,
      differs: (other) => `ran with other options than ${other} (${JSON.stringify(first.matrix.options)})`,
    },
  ]);
  const byPosition = new Map<number, { file: string; session: SessionResult }>();
  for (const { file, data } of set.shards) {
    for (const s of data.sessions) {
      const seen = byPosition.get(s.position);
      if (seen || s.position >= first.matrix.sessions.length)
        throw new InputError(
          file,
          '/sessions',
          seen
            ? `repeats session ${first.matrix.sessions[s.position]}, also in ${seen.file}`
            : `holds session ${s.position}, of ${first.matrix.sessions.length}`,
          'were these files written by the same version?',
        );
      const { position: _position, ...rest } = s;
      byPosition.set(s.position, { file, session: { ...rest, requests: s.entries.length } });
    }
  }
  if (byPosition.size !== first.matrix.sessions.length)
    throw new InputError(
      dir,
      '',
      `the shards hold ${byPosition.size} of the run's ${first.matrix.sessions.length} sessions`,
      'were these files written by the same version?',
    );
  const sessions = first.matrix.sessions.map((_, i) => byPosition.get(i)!.session);
  return { entries: sessions.flatMap((s) => s.entries), sessions };
}

/** `report --merge` of run shards: what the unsharded `run` prints and writes (`--out DIR`), and its exit code. */
export async function mergeRunShards(
  set: ShardSet<RunShardFile>,
  dir: string,
  out: string | undefined,
): Promise<number> {
  const result = mergedRunResult(set, dir);
  const first = set.shards[0]!.data;
  process.stdout.write(`merged ${set.count} shard(s) from ${dir}: ${result.sessions.length} session(s)\n`);
  const allSpecs = loadProviderSpecs(defaultProvidersDir());
  return finishRun(result, {
    specs: servedSpecs(allSpecs, first.matrix.options.providers),
    allSpecs,
    strict: first.matrix.options.strict,
    suite: first.matrix.suite,
    logBodies: first.matrix.options.logBodies,
    ...(out !== undefined ? { out } : {}),
  });
}
