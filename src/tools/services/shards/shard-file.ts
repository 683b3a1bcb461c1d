import stringify from 'json-stringify-pretty-compact';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ConformanceRun } from '../../../judge/conformance/verdict.js';
import { writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { InvariantError } from '../../../shared/errors/invariant-error.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid, describeSchemaErrors, schemaValidator } from '../../../shared/validation/validate.js';
import type { AgentExit } from '../agent-runner/agent-process.js';
import type { RealWorldSection, ScenarioRun } from '../report/compatibility-report.js';
import type { ServeLogEntry, ServeMiss } from '../serve/serve-log.js';
import type { ShardSpec } from '../matrix/shard-spec.js';
import type { SuiteFigures } from '../suites/suite-figures.js';

const SCHEMA = 'shard-result.schema.json';

/** What every shard of one sharded `check` must share; two files that differ here do not merge. */
export interface CheckMatrixIdentity {
  routesFile: string;
  routesSha256: string;
  base?: { ref: string; commit: string };
  /** Scenario runs in the whole matrix, and a fingerprint of their keys in dealing order. */
  scenarioRuns: number;
  scenarioRunsSha256: string;
  options: { strict: boolean; stream: boolean; engine?: string; providers: string[] };
}

/** One machine's part of `check --shard i/N` (specs/schema/shard-result.schema.json). */
export interface CheckShardFile {
  shardVersion: 1;
  kind: 'check';
  shard: ShardSpec;
  matrix: CheckMatrixIdentity;
  routeOrder: string[];
  untestedRoutes: string[];
  harmFails?: boolean;
  realWorld?: RealWorldSection;
  suites?: SuiteFigures[];
  notJudged: NonNullable<ConformanceRun['notJudged']>;
  /** This shard's scenario runs, in report form (project-relative paths, no timing). */
  runs: ScenarioRun[];
}

/** What every shard of one sharded `run` must share. */
export interface RunMatrixIdentity {
  routesFile: string;
  routesSha256: string;
  /** Every session of the whole run, in the order given: a scenario id or `follow-client`. */
  sessions: string[];
  suite: string;
  options: { strict: boolean; seed: number; providers: string[]; logBodies: boolean };
}

export interface ShardSession {
  /** Index in `matrix.sessions`: the merge puts sessions back in the order an unsharded run plays them. */
  position: number;
  scenario: string | null;
  runId: string;
  exit: AgentExit;
  entries: ServeLogEntry[];
  misses: ServeMiss[];
}

/** One machine's part of `run --shard i/N`. */
export interface RunShardFile {
  shardVersion: 1;
  kind: 'run';
  shard: ShardSpec;
  matrix: RunMatrixIdentity;
  sessions: ShardSession[];
}

export type ShardFile = CheckShardFile | RunShardFile;

/** The default place a shard writes to when `--shard-out` is not given. */
export const defaultShardOut = (kind: ShardFile['kind'], shard: ShardSpec): string =>
  `shards/${kind}-shard-${shard.index}-of-${shard.count}.json`;

/** Validates and writes a shard file atomically; a file the schema refuses is a bug here, never written. */
export function writeShardFile(file: string, shard: ShardFile): string {
  const validate = schemaValidator(SCHEMA);
  if (!validate(shard)) {
    const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
    throw new InvariantError(`internal: the shard result breaks specs/schema/${SCHEMA} at ${pointer}: ${problem}`);
  }
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, stringify(shard, { maxLength: 400, indent: 2 }) + '\n');
  return path;
}

/** Reads one shard file: JSON and schema problems are bad input naming the file and the pointer. */
export function readShardFile(file: string): ShardFile {
  const value = readJsonFile(file);
  const version = (value as { shardVersion?: unknown } | null)?.shardVersion;
  if (typeof value === 'object' && value !== null && version !== undefined && version !== 1)
    throw new InputError(
      file,
      '/shardVersion',
      `is shard format ${JSON.stringify(version)}; this reasoning-replay reads format 1`,
      'write and merge the shards with the same reasoning-replay version',
    );
  return assertValid<ShardFile>(
    value,
    SCHEMA,
    file,
    'pass a folder holding only the files `check --shard` or `run --shard` wrote',
  );
}
