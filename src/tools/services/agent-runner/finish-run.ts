import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { clientReport } from '../run-report/client-report.js';
import { renderClientMarkdown, renderRequestJunit } from '../run-report/render-client-report.js';
import { writeClientReport } from '../run-report/write-client-report.js';
import { runReport, type RunNote } from '../run-report/run-report.js';
import { renderRunHtml, RUN_REPORT_HTML } from '../run-report/render-run-html.js';
import type { ServeLogEntry } from '../serve/serve-log.js';
import type { RunResult } from './run-agent.js';
import { describeRefusal, NO_REPLAY, runVerdict } from './run-verdict.js';

const MAX_LISTED = 20;

/** A log line without its body: what `run` writes unless --log-bodies asks for the bodies. */
function withoutBody(e: ServeLogEntry): ServeLogEntry {
  const { body: _body, ...rest } = e;
  return rest;
}

export interface FinishRunOptions {
  /** The provider mocks the run served (`--provider` narrows them). */
  specs: ProviderSpec[];
  /** Every provider spec: the report names routes and rules from them. */
  allSpecs: ProviderSpec[];
  strict: boolean;
  /** The JUnit suite's name: `run -- <agent command>`, credentials already redacted. */
  suite: string;
  /** Keep each request's (redacted) body in the log and requests.jsonl; the run report reads them either way. */
  logBodies: boolean;
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
  // A fault the session never recovered from fails the run though no single request broke a rule.
  const stuck = result.sessions.some((s) => s.faults?.verdicts.some((v) => v.status === 'fail'));
  const code = verdict.code === 0 && stuck ? 1 : verdict.code;

  for (const s of result.sessions) {
    process.stdout.write(
      `${s.scenario ?? 'follow-client'} (run ${s.runId}): agent ${s.exit.failure ?? 'exited 0'}, ${s.requests} request${s.requests === 1 ? '' : 's'} to the mocks\n`,
    );
  }
  for (const e of verdict.broken.slice(0, MAX_LISTED)) process.stdout.write(`✗ ${describeRefusal(e)}\n`);
  if (verdict.broken.length > MAX_LISTED)
    process.stdout.write(`… and ${verdict.broken.length - MAX_LISTED} more (see --log or --out)\n`);
  const faultLines = faultNotes(result);
  for (const n of faultLines)
    process.stdout.write(`${n.status === 'fail' ? '✗' : n.status === 'warn' ? '!' : '✓'} ${n.text}\n`);
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
  const junit = renderRequestJunit(result.entries, options.suite, agentFailure, faultLines);
  const logged = options.logBodies ? result.entries : result.entries.map(withoutBody);
  const lines = logged.map((e) => JSON.stringify(e) + '\n').join('');
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
    const notes: RunNote[] = [
      ...verdict.failures.map((f) => ({
        status: 'fail' as const,
        text: `${f.session.scenario ?? 'follow-client'}: ${f.why}`,
      })),
      ...(verdict.warnings.includes(NO_REPLAY) ? [{ status: 'warn' as const, text: NO_REPLAY }] : []),
      ...faultLines.flatMap((n) => (n.status === 'pass' ? [] : [{ status: n.status, text: n.text }])),
    ];
    const html = renderRunHtml(runReport(result.entries, options.allSpecs, { headline: verdict.headline, notes }));
    if (report) written.push(...writeClientReport(report, options.out, junit, verdict.headline, html));
    else {
      mkdirSync(options.out, { recursive: true });
      writeFileSync(join(options.out, 'junit.xml'), junit);
      written.push(join(options.out, 'junit.xml'));
      writeFileSync(join(options.out, RUN_REPORT_HTML), html);
      written.push(join(options.out, RUN_REPORT_HTML));
    }
    writeFileSync(join(options.out, 'requests.jsonl'), lines);
    written.push(join(options.out, 'requests.jsonl'));
  }
  for (const file of written) process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
  process.stdout.write(`${verdict.headline}: ${sessions}\n`);
  return code;
}

/**
 * recovers-from-faults, one line per injected fault: recovered, or the request that showed the damage and the fix;
 * a fault never injected (no answer it applies to came by) is a warning, never a pass.
 */
export function faultNotes(
  result: RunResult,
): Array<{ fault: string; status: 'pass' | 'fail' | 'warn'; text: string }> {
  return result.sessions.flatMap((s) => [
    ...(s.faults?.verdicts ?? []).map((v) => ({
      fault: v.fault,
      status: v.status,
      text:
        `recovers-from-faults: ${v.fault} on ${v.provider} (injected at request #${v.injectedAt}${v.where ? `, ${v.where}` : ''}) ` +
        (v.damage
          ? `-> damage at request #${v.damage.seq} (${v.damage.what}); fix: ${v.fix}`
          : v.requestsAfter === 0
            ? '-> no request after it: nothing poisoned, nothing recovered'
            : '-> recovered'),
    })),
    ...(s.faults?.notReached ?? []).map((name) => ({
      fault: name,
      status: 'warn' as const,
      text: `recovers-from-faults: ${name} was never injected: no answer it applies to came (see its families in specs/faults.json)`,
    })),
  ]);
}
