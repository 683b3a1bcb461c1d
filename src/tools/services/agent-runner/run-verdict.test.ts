import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/findings/finding.js';
import type { ServeLogEntry, ServeMiss } from '../serve/serve-log.js';
import type { RunResult, SessionResult } from './run-agent.js';
import { runVerdict } from './run-verdict.js';

/**
 * run's one verdict (issue 22 items 8-10): exit 3 tells apart an agent that exited after a refusal, one
 * that never reached the mocks and one whose client spoke another protocol; a run that replayed no
 * reasoning warns (fails under --strict); each refused request is counted once.
 */
let seq = 0;
const entry = (status: number, findings: Finding[] = [], replays = false): ServeLogEntry => ({
  seq: ++seq,
  time: '2026-12-03T00:00:00.000Z',
  provider: 'deepseek',
  route: 'deepseek',
  tier: 'standard',
  family: 'openai-chat',
  scenario: null,
  call: seq - 1,
  method: 'POST',
  path: '/deepseek/chat/completions',
  status,
  sentFields: [],
  findings,
  ...(replays ? { replays: true as const } : {}),
});
const mustEcho: Finding = { rule: 'must-echo', rejection: 'missing-reasoning-content', params: {} };
const session = (entries: ServeLogEntry[], failure?: string, output = '', misses: ServeMiss[] = []): SessionResult => ({
  scenario: null,
  runId: 'rr-test',
  exit: { code: failure ? 1 : 0, signal: null, timedOut: false, output, ...(failure ? { failure } : {}) },
  requests: entries.length,
  entries,
  misses,
});
const run = (...sessions: SessionResult[]): RunResult => ({ entries: sessions.flatMap((s) => s.entries), sessions });

describe('runVerdict', () => {
  it('conforms (0) when every request was accepted and one sent reasoning back', () => {
    const v = runVerdict(run(session([entry(200), entry(200, [], true)])));
    expect(v).toMatchObject({ code: 0, headline: '✓ the agent conformed', warnings: [] });
  });

  it('a refused request is exit 1, named once, even when the agent then failed', () => {
    const v = runVerdict(run(session([entry(200), entry(400, [mustEcho])], 'exited 1')));
    expect(v.code).toBe(1);
    expect(v.broken).toHaveLength(1);
    expect(v.headline).toBe('✗ 1 request broke a provider rule');
  });

  it('exit 3 after a refusal the agent did not survive names the rule and the request', () => {
    const v = runVerdict(run(session([entry(200, [], true), entry(400, [mustEcho])], 'exited 1')));
    expect(v.failures[0]).toMatchObject({ kind: 'after-refusal' });
    expect(v.failures[0]!.why).toMatch(
      /after a mock refused it: #\d+ deepseek POST \/deepseek\/chat\/completions -> 400/,
    );
  });

  it('exit 3 for an agent that never reached the mocks names the variable its SDK reads', () => {
    const output = 'APIConnectionError: getaddrinfo ENOTFOUND api.openai.com';
    const v = runVerdict(run(session([], 'exited 1', output)));
    expect(v.code).toBe(3);
    expect(v.failures[0]).toMatchObject({ kind: 'never-reached' });
    expect(v.failures[0]!.why).toMatch(/names api\.openai\.com: openai reads OPENAI_BASE_URL/);
    expect(v.headline).toBe('✗ the agent failed (exit 3): it never reached the mocks');
  });

  it('exit 3 for a client that spoke another protocol names the path and what serve answered', () => {
    const miss: ServeMiss = {
      method: 'POST',
      path: '/deepseek/v1/messages',
      status: 404,
      reason: 'no-such-path',
      message: 'provider deepseek has no mock for POST /v1/messages',
    };
    const v = runVerdict(run(session([], 'exited 1', '', [miss])));
    expect(v.failures[0]).toMatchObject({ kind: 'protocol' });
    expect(v.failures[0]!.why).toMatch(
      /spoke a protocol the mocks do not: POST \/deepseek\/v1\/messages was answered 404/,
    );
  });

  it('a run that replays nothing warns (0), and fails under --strict (1)', () => {
    const result = run(session([entry(200), entry(200)]));
    const v = runVerdict(result);
    expect(v.code).toBe(0);
    expect(v.warnings.join('\n')).toMatch(/this run judged no replay/);
    expect(v.headline).toBe('! the agent conformed, with 1 warning');
    expect(runVerdict(result, { strict: true }).code).toBe(1);
  });
});
