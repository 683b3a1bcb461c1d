import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { clientReport } from '../serve/client-report.js';
import { renderClientMarkdown, renderRequestJunit } from '../serve/render-client-report.js';
import { writeClientReport } from '../serve/write-client-report.js';
import type { RunResult } from './run-agent.js';
import { describeRefusal, runVerdict } from './run-verdict.js';

const MAX_LISTED = 20;

export interface FinishRunOptions {
  /** The provider mocks the run served (`--provider` narrows them). */
  specs: ProviderSpec[];
  /** Every provider spec: the report names routes and rules from them. */
  allSpecs: ProviderSpec[];
  strict: boolean;
  /** The JUnit suite's name: `run -- <agent command>`. */
  suite: string;
  junit?: string;
  log?: string;
  out?: string;
}

/**
 * What `run` prints and writes once its sessions are over, and its exit code: the same for one run and for the
 * shards of a run joined by `report --merge`, so both say and write the same.
 */
export function finishRun(result: RunResult, options: FinishRunOptions): number {
  const verdict = runVerdict(result, { strict: options.strict, specs: options.specs });
  const code = verdict.code;

  for (const s of result.sessions) {
    process.stdout.write(
      `${s.scenario ?? 'follow-client'} (run ${s.runId}): agent ${s.exit.failure ?? 'exited 0'}, ${s.requests} request${s.requests === 1 ? '' : 's'} to the mocks\n`,
    );
  }
  for (const e of verdict.broken.slice(0, MAX_LISTED)) process.stdout.write(`✗ ${describeRefusal(e)}\n`);
  if (verdict.broken.length > MAX_LISTED)
    process.stdout.write(`… and ${verdict.broken.length - MAX_LISTED} more (see --log or --out)\n`);
  for (const w of verdict.warnings.slice(0, MAX_LISTED)) process.stdout.write(`! ${w}\n`);
  if (verdict.warnings.length > MAX_LISTED)
    process.stdout.write(`… and ${verdict.warnings.length - MAX_LISTED} more warnings (see --log or --out)\n`);
  const sessions = `${result.entries.length} requests over ${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'}`;
  const report = result.entries.length ? clientReport(result.entries, options.allSpecs) : undefined;
  if (report) process.stdout.write('\n' + renderClientMarkdown(report, verdict.headline) + '\n');
  for (const f of verdict.failures) {
    process.stdout.write(`✗ ${f.session.scenario ?? 'follow-client'}: ${f.why}\n`);
    const out = f.session.exit.output;
    process.stderr.write(
      `reasoning-replay run: ${f.why}\n--- agent output (last part) ---\n${out}${out.endsWith('\n') || !out ? '' : '\n'}--- end of agent output ---\n`,
    );
  }

  const agentFailure = verdict.failures.length
    ? verdict.failures
        .map((f) => `${f.session.scenario ?? 'follow-client'}: ${f.why}\n${f.session.exit.output}`)
        .join('\n')
    : undefined;
  const suite = options.suite;
  const junit = renderRequestJunit(result.entries, suite, agentFailure);
  const lines = result.entries.map((e) => JSON.stringify(e) + '\n').join('');
  const written: string[] = [];
  if (options.junit) {
    mkdirSync(dirname(resolve(options.junit)), { recursive: true });
    writeFileSync(options.junit, junit);
    written.push(options.junit);
  }
  if (options.log) {
    mkdirSync(dirname(resolve(options.log)), { recursive: true });
    writeFileSync(options.log, lines);
    written.push(options.log);
  }
  if (options.out) {
    if (report) written.push(...writeClientReport(report, options.out, junit, verdict.headline));
    else {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, 'junit.xml'), junit);
      written.push(join(options.out, 'junit.xml'));
    }
    writeFileSync(join(options.out, 'requests.jsonl'), lines);
    written.push(join(options.out, 'requests.jsonl'));
  }
  for (const file of written) process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
  process.stdout.write(`${verdict.headline}: ${sessions}\n`);
  return code;
}
