import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/findings/finding.js';
import type { RunResult } from '../../services/agent-runner/run-agent.js';
import type { ServeLogEntry } from '../../services/serve/serve-log.js';
import type { Framework, VersionPair } from '../../services/framework-results/framework-matrix.js';
import type { FrameworkRun } from './framework-runs.js';
import { faultPairMet, judgeFaultRun, judgeFrameworkRun } from './framework-verdict.js';
import type { FaultVerdict } from '../../../judge/faults/fault-recovery-judge.js';

const framework: Framework = {
  id: 'langchain-js',
  name: 'LangChain.js',
  package: '@langchain/core',
  language: 'node',
  agent: ['examples/frameworks/langchain/agent.mjs'],
  providers: [{ provider: 'gemini', package: '@langchain/google-genai' }],
};
const pair: VersionPair = {
  id: 'p',
  framework: 'langchain-js',
  provider: 'gemini',
  package: '@langchain/google-genai',
  bug: { version: '1.0.1', alias: 'a-1.0.1' },
  fixed: { version: '1.0.2', alias: 'a-1.0.2' },
  rule: 'signatures-verbatim',
  carrier: 'thoughtSignature',
  report: 'https://example.com/report',
  fix: 'https://example.com/fix',
};
const run = (side?: 'bug' | 'fixed'): FrameworkRun => ({
  key: 'k',
  framework,
  provider: framework.providers[0]!,
  stream: false,
  ...(side ? { pair: { pair, side } } : {}),
});
const entry = (seq: number, status: number, findings: Finding[] = [], replays = false): ServeLogEntry => ({
  seq,
  time: '',
  provider: 'gemini',
  route: 'gemini',
  tier: 'standard',
  family: 'gemini',
  scenario: null,
  call: seq,
  method: 'POST',
  path: '/gemini/v1beta/models/m:generateContent',
  status,
  sentFields: [],
  findings,
  ...(replays ? { replays: true as const } : {}),
});
const result = (entries: ServeLogEntry[], failure?: string): RunResult => ({
  entries,
  sessions: [
    {
      scenario: null,
      runId: 'r',
      exit: { code: failure ? 1 : 0, signal: null, timedOut: false, output: '', ...(failure ? { failure } : {}) },
      requests: entries.length,
      entries,
      misses: [],
    },
  ],
});
const missingSignature: Finding = {
  rule: 'signatures-verbatim',
  rejection: 'missing-thought-signature',
  params: { field: 'lookup_order', index: 1 },
  detail: 'function call lookup_order in content 1 (current turn) has no thought_signature',
};
const versions = { framework: '1.4.0', package: '1.0.1' };

describe('judgeFrameworkRun: one run of the framework matrix into a row', () => {
  it('a refused request fails the row with its rule, the request and the carrier it dropped', () => {
    const row = judgeFrameworkRun(
      run(),
      result([entry(1, 200), entry(2, 400, [missingSignature])], 'exited 1'),
      versions,
    );
    expect(row).toMatchObject({ verdict: 'fail', rule: 'signatures-verbatim', packageVersion: '1.0.1' });
    expect(row.evidence).toMatchObject({
      request: '#2 POST /gemini/v1beta/models/m:generateContent',
      status: 400,
      carrier: 'thoughtSignature at message 1',
    });
    expect(row.reason).toContain('has no thought_signature');
  });

  it('a contested rule answered leniently is a warning naming it, never a failure', () => {
    const contested: Finding = {
      ...missingSignature,
      rule: 'strict-schema',
      rejection: 'function-response-id',
      contested: true,
      lenient: true,
      params: { path: 'contents.2.parts.0.functionResponse.id' },
    };
    const row = judgeFrameworkRun(run(), result([entry(1, 200), entry(2, 200, [contested], true)]), versions);
    expect(row).toMatchObject({ verdict: 'warn', rule: 'strict-schema' });
    expect(row.evidence?.carrier).toBe('function-response-id at contents.2.parts.0.functionResponse.id');
  });

  it('every request accepted and reasoning replayed is a pass; nothing replayed is a warning', () => {
    expect(judgeFrameworkRun(run(), result([entry(1, 200), entry(2, 200, [], true)]), versions).verdict).toBe('pass');
    const silent = judgeFrameworkRun(run(), result([entry(1, 200), entry(2, 200)]), versions);
    expect(silent).toMatchObject({ verdict: 'warn' });
    expect(silent.rule).toBeUndefined();
  });

  it('an agent that stops on its own after accepted answers is agent-failed', () => {
    expect(judgeFrameworkRun(run(), result([entry(1, 200)], 'exited 1'), versions).verdict).toBe('agent-failed');
  });

  it('a pair: the bug side is met only by a failure naming its rule, the fixed side only by a pass', () => {
    const refused = result([entry(1, 200), entry(2, 400, [missingSignature])], 'exited 1');
    expect(judgeFrameworkRun(run('bug'), refused, versions).pair).toMatchObject({ side: 'bug', met: true });
    const otherRule = result([entry(1, 200), entry(2, 400, [{ ...missingSignature, rule: 'must-echo' }])], 'exited 1');
    expect(judgeFrameworkRun(run('bug'), otherRule, versions).pair?.met).toBe(false);
    const accepted = result([entry(1, 200), entry(2, 200, [], true)]);
    expect(judgeFrameworkRun(run('bug'), accepted, versions).pair?.met).toBe(false);
    expect(judgeFrameworkRun(run('fixed'), accepted, versions).pair?.met).toBe(true);
    expect(judgeFrameworkRun(run('fixed'), refused, versions).pair?.met).toBe(false);
    // Replaying nothing is no fix.
    expect(judgeFrameworkRun(run('fixed'), result([entry(1, 200), entry(2, 200)]), versions).pair?.met).toBe(false);
  });

  describe('judgeFaultRun: one run of the faults column into its cell', () => {
    const FAULT = 'gemini-cut-before-signature';
    const faulted: FrameworkRun = { ...run(), stream: true, fault: FAULT };
    const verdict = (over: Partial<FaultVerdict> = {}): FaultVerdict => ({
      fault: FAULT,
      session: 'r',
      provider: 'gemini',
      injectedAt: 1,
      where: 'cut after 1 of 2 reasoning text pieces, before the signature',
      status: 'pass',
      requestsAfter: 3,
      fix: 'drop the partial part',
      sources: [],
      ...over,
    });
    const under = (entries: ServeLogEntry[], faults: RunResult['sessions'][0]['faults'], failure?: string) => {
      const r = result(entries, failure);
      r.sessions[0]!.faults = faults;
      return r;
    };
    const four = [entry(1, 200), entry(2, 200), entry(3, 200), entry(4, 200)];

    it('damage on a later request is poisoned, naming that request, what it carried and the fix', () => {
      const damage = { seq: 2, what: 'partial-thinking' as const, detail: `after fault ${FAULT}: a partial thought` };
      const cell = judgeFaultRun(
        faulted,
        under(four, { verdicts: [verdict({ status: 'fail', damage })], notReached: [] }),
      );
      expect(cell).toMatchObject({
        fault: FAULT,
        outcome: 'poisoned',
        injected:
          '#1 POST /gemini/v1beta/models/m:generateContent: cut after 1 of 2 reasoning text pieces, before the signature',
        damage: { request: '#2 POST /gemini/v1beta/models/m:generateContent', what: 'partial-thinking' },
      });
      expect(cell.reason).toContain(FAULT);
    });

    it('no damage and the task finished survives; no damage but the agent stopped gave up, never survives', () => {
      expect(judgeFaultRun(faulted, under(four, { verdicts: [verdict()], notReached: [] })).outcome).toBe('survives');
      const stopped = judgeFaultRun(
        faulted,
        under([entry(1, 200)], { verdicts: [verdict({ requestsAfter: 0 })], notReached: [] }, 'exited 13'),
      );
      expect(stopped.outcome).toBe('gave-up');
      expect(stopped.reason).toContain('exit 13');
    });

    it('a fault that never fired is not-injected, never a pass', () => {
      const cell = judgeFaultRun(faulted, under(four, { verdicts: [], notReached: [FAULT] }));
      expect(cell.outcome).toBe('not-injected');
      expect(judgeFaultRun(faulted, result(four)).outcome).toBe('not-injected');
    });

    it('a pair under a fault: the bug version is met only when poisoned, the fixed one only when it survives', () => {
      const cell = (outcome: 'survives' | 'poisoned' | 'gave-up' | 'not-injected') => ({
        fault: FAULT,
        outcome,
        reason: 'r',
        requests: 1,
      });
      expect(faultPairMet('bug', cell('poisoned'))).toBe(true);
      expect(faultPairMet('bug', cell('gave-up'))).toBe(false);
      expect(faultPairMet('bug', cell('not-injected'))).toBe(false);
      expect(faultPairMet('fixed', cell('survives'))).toBe(true);
      expect(faultPairMet('fixed', cell('gave-up'))).toBe(false);
      expect(faultPairMet('fixed', cell('poisoned'))).toBe(false);
    });
  });
});
