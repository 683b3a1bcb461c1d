import { readFileSync } from 'node:fs';
import type { RunResult } from '../agent-runner/run-agent.js';
import { sha256 } from './check-shard-result.js';
import { keysOfShard } from '../matrix/deal-shards.js';
import type { RunMatrixIdentity, RunShardFile } from './shard-file.js';
import type { ShardSpec } from '../matrix/shard-spec.js';

export const FOLLOW_CLIENT = 'follow-client';

/**
 * The sessions of a run, by key: one per `--scenario` in the order given (a repeat keyed `id#2`, ...), or the one
 * session whose mocks follow the client.
 */
export function sessionKeys(scenarios: readonly string[]): string[] {
  if (scenarios.length === 0) return [FOLLOW_CLIENT];
  const seen = new Map<string, number>();
  return scenarios.map((id) => {
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return n > 1 ? `${id}#${n}` : id;
  });
}

/** The positions (in `keys`) of the sessions one shard plays, dealt by key as the check's scenario runs are. */
export function positionsOfShard(keys: readonly string[], shard: ShardSpec): number[] {
  const mine = keysOfShard(
    keys.map((key) => ({ key, heavy: true })),
    shard,
  );
  return keys.flatMap((k, i) => (mine.has(k) ? [i] : []));
}

export interface RunShardInputs {
  shard: ShardSpec;
  routesFile: string;
  routesPath: string;
  keys: string[];
  suite: string;
  options: RunMatrixIdentity['options'];
  /** The positions this shard played, in the order of `result.sessions`. */
  positions: number[];
  result: RunResult;
}

/** The file one `run --shard i/N` writes: its sessions with every request, and what identifies the whole run. */
export function runShardResult(inputs: RunShardInputs): RunShardFile {
  return {
    shardVersion: 1,
    kind: 'run',
    shard: inputs.shard,
    matrix: {
      routesFile: inputs.routesFile,
      routesSha256: sha256(readFileSync(inputs.routesPath)),
      sessions: inputs.keys,
      suite: inputs.suite,
      options: inputs.options,
    },
    sessions: inputs.result.sessions.map((s, i) => ({
      position: inputs.positions[i]!,
      scenario: s.scenario,
      runId: s.runId,
      exit: s.exit,
      entries: s.entries,
      misses: s.misses,
      ...(s.faults ? { faults: s.faults } : {}),
    })),
  };
}
