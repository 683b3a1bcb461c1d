import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConformanceRun } from '../../../judge/conformance/verdict.js';
import type { CompatibilityReport, RealWorldSection } from '../report/compatibility-report.js';
import type { SuiteFigures } from '../suites/suite-figures.js';
import { matrixFingerprint, type ShardItem } from '../matrix/deal-shards.js';
import type { CheckMatrixIdentity, CheckShardFile } from './shard-file.js';
import type { ShardSpec } from '../matrix/shard-spec.js';

export interface CheckShardInputs {
  shard: ShardSpec;
  /** The shard's report, built exactly as the unsharded check builds its own (same root, same untested routes). */
  report: CompatibilityReport;
  /** The route table file the matrix ran on: its bytes are what every shard must share. */
  routesPath: string;
  routeOrder: string[];
  /** Every scenario run of the whole matrix (not only this shard's). */
  items: readonly ShardItem[];
  options: CheckMatrixIdentity['options'];
  base?: { ref: string; commit: string };
  harmFails?: boolean;
  realWorld?: RealWorldSection;
  suites?: SuiteFigures[];
  notJudged?: ConformanceRun['notJudged'];
}

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The file one `check --shard i/N` writes: its scenario runs, and what identifies the whole run. */
export function checkShardResult(inputs: CheckShardInputs): CheckShardFile {
  return {
    shardVersion: 1,
    kind: 'check',
    shard: inputs.shard,
    matrix: {
      routesFile: inputs.report.routesFile,
      routesSha256: sha256(readFileSync(inputs.routesPath)),
      ...(inputs.base ? { base: inputs.base } : {}),
      scenarioRuns: inputs.items.length,
      scenarioRunsSha256: matrixFingerprint(inputs.items),
      options: inputs.options,
    },
    routeOrder: inputs.routeOrder,
    untestedRoutes: inputs.report.summary.untestedRoutes,
    ...(inputs.harmFails !== undefined ? { harmFails: inputs.harmFails } : {}),
    ...(inputs.realWorld ? { realWorld: inputs.realWorld } : {}),
    ...(inputs.suites ? { suites: inputs.suites } : {}),
    notJudged: inputs.notJudged ?? [],
    runs: inputs.report.runs,
  };
}
