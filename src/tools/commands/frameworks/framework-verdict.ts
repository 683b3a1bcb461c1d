import type { RunResult } from '../../services/agent-runner/run-agent.js';
import { runVerdict } from '../../services/agent-runner/run-verdict.js';
import type { ServeLogEntry } from '../../services/serve/serve-log.js';
import { describeFinding } from '../../services/run-report/client-report.js';
import type { FrameworkRun } from './framework-runs.js';
import type { FaultCell, FrameworkRow } from '../../services/framework-results/framework-row.js';

const requestOf = (e: ServeLogEntry) => `#${e.seq} ${e.method} ${e.path}`;

/**
 * The carrier a rejection is about, in the provider's own spelling: what the reader looks for in the
 * request. Rejections not listed are named by their id.
 */
const CARRIER_OF_REJECTION: Record<string, string> = {
  'missing-thought-signature': 'thoughtSignature',
  'reasoning-content-missing': 'reasoning_content',
  'reasoning-content-not-passed-back': 'reasoning_content',
  'invalid-signature': 'thinking.signature',
  'thinking-expected': 'thinking block',
  'item-not-found': 'reasoning item (encrypted_content)',
  'message-without-reasoning': 'reasoning item',
};

function carrierOf(rejection: string, params: Record<string, string | number>): string {
  const carrier = CARRIER_OF_REJECTION[rejection] ?? rejection;
  const where =
    params.path !== undefined ? String(params.path) : params.index !== undefined ? `message ${params.index}` : '';
  return where ? `${carrier} at ${where}` : carrier;
}

/** The verdict, rule, reason and evidence of one run, read from what `run` judged. */
export function judgeFrameworkRun(
  run: FrameworkRun,
  result: RunResult,
  versions: { framework: string; package: string },
): FrameworkRow {
  const verdict = runVerdict(result);
  const base = {
    key: run.key,
    framework: run.framework.id,
    frameworkName: run.framework.name,
    frameworkVersion: versions.framework,
    provider: run.provider.provider,
    package: run.pair ? run.pair.pair.package : run.provider.package,
    packageVersion: versions.package,
    stream: run.stream,
    requests: result.entries.length,
    ...(run.provider.knownIssue ? { knownIssue: run.provider.knownIssue } : {}),
  };
  let row: FrameworkRow;
  const broken = verdict.broken[0];
  if (verdict.code === 1 && broken) {
    const finding = broken.findings.find((f) => !f.lenient);
    row = {
      ...base,
      verdict: 'fail',
      rule: finding?.rule ?? 'provider-accepts',
      reason: finding ? describeFinding(finding) : `the mock answered ${broken.status}`,
      evidence: {
        request: requestOf(broken),
        status: broken.status,
        rule: finding?.rule ?? 'provider-accepts',
        rejection: finding?.rejection ?? String(broken.status),
        carrier: finding ? carrierOf(finding.rejection, finding.params) : '',
        detail: finding ? describeFinding(finding) : '',
      },
    };
  } else if (verdict.code === 3) {
    row = { ...base, verdict: 'agent-failed', reason: verdict.failures[0]?.why ?? 'the agent failed' };
  } else {
    const lenient = result.entries.flatMap((e) => e.findings.filter((f) => f.lenient).map((f) => ({ e, f })));
    const first = lenient[0];
    row = first
      ? {
          ...base,
          verdict: 'warn',
          rule: first.f.rule,
          reason: `contested, answered as its lenient side: ${first.f.detail ?? first.f.rejection}`,
          evidence: {
            request: requestOf(first.e),
            status: first.e.status,
            rule: first.f.rule,
            rejection: first.f.rejection,
            carrier: carrierOf(first.f.rejection, first.f.params),
            detail: describeFinding(first.f),
          },
        }
      : verdict.warnings.length
        ? {
            ...base,
            verdict: 'warn',
            // run's own warning asks for two turns with tool rounds; every agent here drives them, so
            // what it means here is that no reasoning came back: none was issued, or it was dropped.
            reason:
              'every request accepted, but none sent an earlier answer’s reasoning back (none issued, or dropped unrefused)',
          }
        : { ...base, verdict: 'pass', reason: `${result.entries.length} requests accepted, reasoning replayed` };
  }
  if (run.pair) {
    const { pair, side } = run.pair;
    const expected = side === 'bug' ? `fail naming ${pair.rule}` : 'pass';
    // A fixed version may warn on a contested rule (never a failure), not for replaying nothing.
    const met =
      side === 'bug'
        ? row.verdict === 'fail' && row.rule === pair.rule
        : row.verdict === 'pass' || (row.verdict === 'warn' && row.rule !== undefined);
    row.pair = { id: pair.id, side, expected, met };
  }
  return row;
}

/**
 * One run of the faults column into its cell, read from the fault verdict `run` judged (recovers-from-faults): the
 * request that showed the damage when there was one; else whether the agent finished (survives) or stopped having
 * sent nothing poisoned (gave up); a fault no answer applied to is not-injected, never a pass.
 */
export function judgeFaultRun(run: FrameworkRun, result: RunResult): FaultCell {
  const fault = run.fault!;
  const session = result.sessions[0];
  const requests = result.entries.length;
  const verdict = session?.faults?.verdicts.find((v) => v.fault === fault);
  const bySeq = (seq: number) => result.entries.find((e) => e.seq === seq);
  const described = (seq: number) => {
    const e = bySeq(seq);
    return e ? requestOf(e) : `#${seq}`;
  };
  if (!verdict)
    return {
      fault,
      outcome: 'not-injected',
      reason: `no answer ${fault} applies to came in ${requests} requests${session?.exit.failure ? ` (the agent ${session.exit.failure})` : ''}`,
      requests,
    };
  const injected = `${described(verdict.injectedAt)}${verdict.where ? `: ${verdict.where}` : ''}`;
  if (verdict.status === 'fail' && verdict.damage)
    return {
      fault,
      outcome: 'poisoned',
      injected,
      damage: { request: described(verdict.damage.seq), what: verdict.damage.what, detail: verdict.damage.detail },
      reason: verdict.damage.detail,
      requests,
    };
  const failure = session?.exit.failure;
  if (failure)
    return {
      fault,
      outcome: 'gave-up',
      injected,
      reason: `the agent ${failure} after the fault${/exited 13\b/.test(failure) ? ' (Node’s exit 13: an await that never settled)' : ''}, having sent nothing poisoned (${verdict.requestsAfter} requests after it)`,
      requests,
    };
  return {
    fault,
    outcome: 'survives',
    injected,
    reason: `finished its task: ${verdict.requestsAfter} requests after the fault, none carrying its damage`,
    requests,
  };
}

/** Whether a pair judged under a fault came out as its report says: the bug version poisoned by it, the fixed one surviving. */
export function faultPairMet(side: 'bug' | 'fixed', cell: FaultCell): boolean {
  return side === 'bug' ? cell.outcome === 'poisoned' : cell.outcome === 'survives';
}
