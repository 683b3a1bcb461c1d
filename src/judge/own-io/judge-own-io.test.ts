import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Finding } from '../../shared/findings/finding.js';
import type { OwnIoStep, SeenRequest, SteppedRequests } from '../../shared/engine-io/own-io-protocol.js';
import { judgeSession, keptTurns, leakBetween, ownIoChecks, toolCallIds } from './judge-own-io.js';

const user = (text: string) => ({ role: 'user', content: text });
const toolTurn = (id: string, reasoning?: string) => ({
  role: 'assistant',
  content: null,
  ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
  tool_calls: [{ id, type: 'function', function: { name: 'lookup', arguments: '{}' } }],
});
const result = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });

let seq = 0;
const request = (messages: unknown[], extra: Partial<SeenRequest> = {}): SeenRequest => ({
  seq: ++seq,
  provider: 'deepseek',
  route: 'deepseek',
  status: 200,
  findings: [],
  body: { model: 'm', messages },
  ...extra,
});
const mustEcho: Finding = { rule: 'must-echo', rejection: 'missing-reasoning-content', params: {}, detail: 'no echo' };
const refusedFor = (messages: unknown[], f: Finding) => request(messages, { status: 400, findings: [f] });
const step = (s: OwnIoStep, requests: SeenRequest[], history: unknown[] = []): SteppedRequests => ({
  step: s,
  requests,
  history,
});
const turn = (content: string, session = 's') => ({ type: 'turn' as const, session, content });
const binds = { binds: () => false };

const first = [user('a'), toolTurn('c1', 'r1'), result('c1')];
const second = [...first, user('b'), toolTurn('c2', 'r2'), result('c2')];

describe('keptTurns: the first request after a step against the last one before it', () => {
  it('passes a conversation that kept every tool-call turn as it was, key order aside', () => {
    const reordered = { tool_calls: toolTurn('c1', 'r1').tool_calls, reasoning_content: 'r1', content: null };
    const kept = keptTurns(
      request(first),
      request([user('a'), { ...reordered, role: 'assistant' }]),
      'survives-resume',
      false,
    );
    expect(kept?.status).toBe('pass');
  });

  it('fails a kept turn whose reasoning changed or went, naming the key', () => {
    const kept = keptTurns(request(first), request([user('a'), toolTurn('c1')]), 'survives-compaction', true);
    expect(kept).toMatchObject({ status: 'fail', behaviour: 'survives-compaction' });
    expect(kept?.detail).toContain('reasoning_content');
  });

  it('lets a compaction summarise a turn away, never a resume', () => {
    expect(keptTurns(request(first), request([user('summary')]), 'survives-compaction', true)).toBeUndefined();
    expect(keptTurns(request(first), request([user('summary')]), 'survives-resume', false)?.detail).toContain(
      'the turn calling c1 is gone',
    );
  });

  it('accepts bound thinking dropped after its prefix changed, only where the model binds', () => {
    const thought = { type: 'thinking', thinking: 't', signature: 'sig' };
    const use = { type: 'tool_use', id: 'u1', name: 'lookup', input: {} };
    const before = request([user('a'), { role: 'assistant', content: [thought, use] }]);
    const after = request([user('summary'), { role: 'assistant', content: [use] }]);
    expect(keptTurns(before, after, 'survives-compaction', true, true)?.status).toBe('pass');
    expect(keptTurns(before, after, 'survives-compaction', true, false)?.status).toBe('fail');
  });

  it('pairs a kept turn with its own original where a carried-over turn repeats its id', () => {
    const carried = [user('old'), toolTurn('c1', 'r0'), result('c1'), ...first];
    expect(keptTurns(request(carried), request([user('summary'), ...first]), 'survives-compaction', true)?.status).toBe(
      'pass',
    );
  });

  it('reads tool-call ids of Chat, Messages and Responses turns', () => {
    expect(toolCallIds(toolTurn('x'))).toEqual(['x']);
    expect(toolCallIds({ role: 'assistant', content: [{ type: 'tool_use', id: 'y' }] })).toEqual(['y']);
    expect(toolCallIds({ type: 'function_call', call_id: 'z' })).toEqual(['z']);
    expect(toolCallIds(user('no'))).toEqual([]);
  });
});

describe('judgeSession: each finding under the behaviour the step tests', () => {
  it('lists a refusal after a compaction under survives-compaction, not under the mock’s rule', () => {
    const listed = judgeSession(
      [
        step(turn('a'), [request(first)]),
        step({ type: 'compact', session: 's' }, [request([user('summarise')])]),
        step(turn('b'), [refusedFor([user('summary'), toolTurn('c1')], mustEcho)]),
      ],
      binds,
    );
    expect(listed.filter((l) => l.status === 'fail').map((l) => l.behaviour)).toEqual(['survives-compaction']);
  });

  it('lists a binding refusal after a compaction under binding-respected: the step did not cause it', () => {
    const bound: Finding = { rule: 'binding-respected', rejection: 'thinking-bound', params: {}, detail: 'bound' };
    const listed = judgeSession(
      [
        step(turn('a'), [request(first)]),
        step({ type: 'compact', session: 's' }, [request([user('summarise')])]),
        step(turn('b'), [refusedFor([user('summary'), toolTurn('c1')], bound)]),
      ],
      binds,
    );
    expect(listed.filter((l) => l.status === 'fail').map((l) => l.behaviour)).toEqual(['binding-respected']);
  });

  it('keeps a rule the turns before the step already broke under that rule', () => {
    const listed = judgeSession(
      [
        step(turn('a'), [refusedFor(first, mustEcho)]),
        step({ type: 'resume', session: 's' }, []),
        step(turn('b'), [refusedFor(second, mustEcho)]),
      ],
      binds,
    );
    expect(new Set(listed.filter((l) => l.status === 'fail').map((l) => l.behaviour))).toEqual(new Set(['must-echo']));
  });

  it('says a step was not judged, and why, when every request after it was refused for an earlier rule', () => {
    const listed = judgeSession(
      [
        step(turn('a'), [refusedFor(first, mustEcho)]),
        step({ type: 'resume', session: 's' }, []),
        step(turn('b'), [refusedFor(second, mustEcho)]),
      ],
      binds,
    );
    const [resume] = ownIoChecks(
      listed,
      2,
      () => false,
      () => 'no request exercised it',
    ).filter((c) => c.behaviour === 'survives-resume');
    expect(resume).toMatchObject({ status: 'n/a' });
    expect(resume!.detail).toMatch(/^not judged: every request of the turn after it was refused \(must-echo\)/);
    // Accepted after the step: judged, no n/a line.
    const judged = judgeSession(
      [
        step(turn('a'), [request(first)]),
        step({ type: 'resume', session: 's' }, []),
        step(turn('b'), [request(second)]),
      ],
      binds,
    );
    expect(judged.filter((l) => l.behaviour === 'survives-resume').map((l) => l.status)).toEqual(['pass']);
  });

  it('says a step was not judged when no turn or no request followed it', () => {
    const ended = judgeSession([step(turn('a'), [request(first)]), step({ type: 'compact', session: 's' }, [])], binds);
    expect(ended).toContainEqual({
      behaviour: 'survives-compaction',
      status: 'n/a',
      detail: 'not judged: the engine sent no request in the turn after it',
    });
  });

  it('fails a resume that answers another history than the one stored', () => {
    const listed = judgeSession(
      [step(turn('a'), [request(first)], first), step({ type: 'resume', session: 's' }, [], first.slice(0, 1))],
      binds,
    );
    expect(listed).toContainEqual(expect.objectContaining({ behaviour: 'survives-resume', status: 'fail' }));
  });

  it('holds a branch against the turn it was taken at', () => {
    const steps = (after: unknown[]) => [
      step(turn('a'), [request(first)], first),
      step(turn('b'), [request(second)], second),
      step({ type: 'branch', session: 's', into: 'b', atMessage: first.length }, [], first),
      step(turn('c', 'b'), [request(after)], after),
    ];
    const ok = judgeSession(steps([...first, user('c')]), binds);
    expect(ok.find((l) => l.behaviour === 'survives-branch')?.status).toBe('pass');
    const lost = judgeSession(steps([user('a'), toolTurn('c1'), result('c1'), user('c')]), binds);
    expect(lost.find((l) => l.behaviour === 'survives-branch')?.status).toBe('fail');
  });
});

describe('leakBetween: two sessions of one program send the same conversations', () => {
  const session = (conversations: unknown[][]) => conversations.map((c, i) => step(turn(String(i)), [request(c)]));

  it('passes equal sessions and fails any difference, for any conversations', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { maxLength: 3 }), { minLength: 1, maxLength: 4 }), (texts) => {
        const conversations = texts.map((t) => t.map(user));
        expect(leakBetween(session(conversations), session(conversations)).status).toBe('pass');
        const leaked = [[user('left over'), ...conversations[0]!], ...conversations.slice(1)];
        const leak = leakBetween(session(conversations), session(leaked));
        expect(leak).toMatchObject({ behaviour: 'history-unmutated', status: 'fail' });
        expect(leak.detail).toContain('state leaked between sessions');
      }),
    );
  });
});

describe('ownIoChecks', () => {
  it('passes what the mock judges on every request, and says why the rest is n/a', () => {
    const checks = ownIoChecks(
      [],
      3,
      (b) => b === 'must-echo',
      () => 'not exercised',
    );
    expect(checks.find((c) => c.behaviour === 'must-echo')?.status).toBe('pass');
    expect(checks.find((c) => c.behaviour === 'native-scoped')).toMatchObject({
      status: 'n/a',
      detail: 'not exercised',
    });
    expect(
      ownIoChecks(
        [],
        0,
        () => true,
        () => 'none',
      ).every((c) => c.status === 'n/a'),
    ).toBe(true);
  });
});
