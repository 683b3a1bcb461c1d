import type { Finding } from '../../../shared/findings/finding.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { describeFinding } from './client-report.js';
import { brokeARule, type ServeLogEntry } from '../serve/serve-log.js';
import { carrierDiff, type CarrierDiff } from './carrier-diff.js';
import { findingFix, type FindingFix } from './finding-fix.js';

/** One rule one provider's mock held against the run: every request that broke (or, contested, bent) it. */
export interface RuleLine {
  status: 'fail' | 'warn';
  provider: string;
  rule: string;
  /** The spec's rejections the findings answered with, in first-seen order. */
  rejections: string[];
  /** Each request concerned, by its place in the log (`RequestView.n`), ascending. */
  requests: number[];
  /** The first finding, as one line (a contested rule names both sides' sources). */
  detail: string;
  fix: FindingFix;
}

export interface RequestFinding {
  finding: Finding;
  line: string;
  fix: FindingFix;
}

export interface RequestView {
  /** Its place in the log, from 1: `seq` restarts with each session of a run, this does not. */
  n: number;
  seq: number;
  runId: string | null;
  call: number;
  provider: string;
  route: string;
  client: string;
  method: string;
  path: string;
  status: number;
  verdict: 'fail' | 'warn' | 'pass';
  findings: RequestFinding[];
  /** The carriers wanted back beside those sent; null when the log holds no body (written without --log-bodies). */
  diff: CarrierDiff | null;
}

/** A line about the run as a whole (`run` knows whether the agent failed, or replayed nothing). */
export interface RunNote {
  status: 'fail' | 'warn';
  text: string;
}

export interface RunReport {
  verdict: 'pass' | 'warn' | 'fail';
  headline: string;
  clients: string[];
  runIds: string[];
  /** Failures first: one line per rule x provider, ordered by provider then rule. */
  failures: RuleLine[];
  /** Contested rules answered as their lenient side: one line per rule x provider. */
  warnings: RuleLine[];
  notes: RunNote[];
  requests: RequestView[];
}

/** A refusal no finding explains (a harness limit, an unworded 4xx): held against provider-accepts. */
function unexplained(e: ServeLogEntry): Finding | undefined {
  if (!brokeARule(e) || e.findings.some((f) => !f.lenient)) return undefined;
  return {
    rule: 'provider-accepts',
    rejection: `answered ${e.status}`,
    params: {},
    detail: `the mock answered ${e.status} with no rule finding`,
  };
}

const UNEXPLAINED_FIX: FindingFix = {
  fix: 'read the mock’s answer body (serve names the limit or path it refused), then send what the provider’s API accepts',
  sources: [],
};

/**
 * The run as a person reads it: what failed, one line per rule x provider with its fix; the contested rules bent,
 * as warnings; then each request with the carriers its provider wanted back beside those it sent. `headline` and
 * `notes` are the caller's when it knows more than the requests (`run`: the agent's exit).
 */
export function runReport(
  entries: readonly ServeLogEntry[],
  specs: readonly ProviderSpec[],
  options: { headline?: string; notes?: RunNote[] } = {},
): RunReport {
  const byId = new Map(specs.map((s) => [s.id, s]));
  const lines = new Map<string, RuleLine>();
  const requests: RequestView[] = [];
  for (const [i, e] of entries.entries()) {
    const n = i + 1;
    const spec = byId.get(e.provider);
    const extra = unexplained(e);
    const findings = [...e.findings, ...(extra ? [extra] : [])].map((finding) => ({
      finding,
      line: describeFinding(finding),
      fix: finding === extra ? UNEXPLAINED_FIX : findingFix(finding, spec, specs),
    }));
    for (const { finding, line, fix } of findings) {
      const status = finding.lenient ? 'warn' : 'fail';
      const key = `${status}\u0000${e.provider}\u0000${finding.rule}`;
      const known = lines.get(key);
      if (!known) {
        lines.set(key, {
          status,
          provider: e.provider,
          rule: finding.rule,
          rejections: [finding.rejection],
          requests: [n],
          detail: line,
          fix,
        });
        continue;
      }
      if (!known.rejections.includes(finding.rejection)) known.rejections.push(finding.rejection);
      if (!known.requests.includes(n)) known.requests.push(n);
    }
    requests.push({
      n,
      seq: e.seq,
      runId: e.runId ?? null,
      call: e.call,
      provider: e.provider,
      route: e.route,
      client: e.client ?? 'unknown client',
      method: e.method,
      path: e.path,
      status: e.status,
      verdict: brokeARule(e) ? 'fail' : e.findings.length > 0 ? 'warn' : 'pass',
      findings,
      diff: e.body === undefined ? null : carrierDiff(e.body, spec, e.findings),
    });
  }
  const order = (a: RuleLine, b: RuleLine) => a.provider.localeCompare(b.provider) || a.rule.localeCompare(b.rule);
  const all = [...lines.values()];
  const failures = all.filter((l) => l.status === 'fail').sort(order);
  const warnings = all.filter((l) => l.status === 'warn').sort(order);
  const notes = options.notes ?? [];
  const verdict =
    failures.length > 0 || notes.some((n) => n.status === 'fail')
      ? 'fail'
      : warnings.length > 0 || notes.length > 0
        ? 'warn'
        : 'pass';
  const headline =
    options.headline ??
    (verdict === 'fail'
      ? `✗ ${failures.length} rule${failures.length === 1 ? '' : 's'} broken`
      : verdict === 'warn'
        ? `! conforms, with ${warnings.length + notes.length} warning${warnings.length + notes.length === 1 ? '' : 's'}`
        : '✓ conforms');
  return {
    verdict,
    headline,
    clients: [...new Set(requests.map((r) => r.client))].sort(),
    runIds: [...new Set(entries.flatMap((e) => (e.runId ? [e.runId] : [])))].sort(),
    failures,
    warnings,
    notes,
    requests,
  };
}
