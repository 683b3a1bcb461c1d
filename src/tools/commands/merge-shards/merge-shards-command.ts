import { join, relative } from 'node:path';
import { projectRoot } from '../../../shared/project-root.js';
import { formatNotJudged } from '../../services/matrix/not-judged-lines.js';
import { reportSummaryLine } from '../../services/report/summary-line.js';
import { writeReport } from '../../services/report/write-report.js';
import { mergeCheckShards } from './merge-check-shards.js';
import { readShardDir, type ShardSet } from './read-shard-dir.js';
import type { CheckShardFile, RunShardFile } from '../../services/shards/shard-file.js';

export interface MergeOptions {
  /** Where the reports go; a check merge writes to reports/ without it, as `report` does. */
  out?: string;
  htmlUrl?: string;
}

/**
 * `report --merge DIR`: the shards of one sharded check (or run) joined into the files, and the exit code, one
 * unsharded run gives. Every refusal (a missing, repeated or foreign shard) is bad input before anything is written.
 */
export async function mergeShards(dir: string, options: MergeOptions): Promise<number> {
  const set = readShardDir(dir);
  if (set.kind === 'run') {
    const { mergeRunShards } = await import('./merge-run-shards.js');
    return mergeRunShards(set as ShardSet<RunShardFile>, dir, options.out);
  }
  const merged = mergeCheckShards(set as ShardSet<CheckShardFile>, dir);
  const files = writeReport(
    merged.report,
    options.out ?? join(projectRoot(), 'reports'),
    options.htmlUrl ? { htmlUrl: options.htmlUrl } : {},
  );
  const write = (text: string) => process.stdout.write(text);
  write(`merged ${set.count} shard(s) from ${dir}: ${merged.scenarioRuns} scenario runs\n`);
  for (const file of files) write(`wrote ${relative(process.cwd(), file) || file}\n`);
  const notJudged = formatNotJudged({
    routesFile: '',
    startedAt: '',
    durationMs: 0,
    cells: [],
    notJudged: merged.notJudged,
  });
  if (notJudged) write(notJudged + '\n');
  write(reportSummaryLine(merged.report));
  if (merged.strict && merged.report.summary.runs.warn > 0)
    write(`--strict: ${merged.report.summary.runs.warn} scenario run(s) with warnings, counted as violations\n`);
  if (merged.strict && merged.notJudged.length > 0)
    write(`--strict: ${merged.notJudged.length} operation(s) not judged, counted as violations\n`);
  return merged.failed ? 1 : 0;
}
