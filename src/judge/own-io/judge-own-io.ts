import { isDeepStrictEqual } from 'node:util';
import type { Finding } from '../../shared/findings/finding.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { OwnIoStep, SeenRequest, SteppedRequests } from '../../shared/engine-io/own-io-protocol.js';
import { BindingLedger } from '../conformance/binding-respected.js';
import { sessionLeak } from '../conformance/run-scenario.js';
import { aggregateStatus, BEHAVIOURS, type Behaviour, type Check, type CheckStatus } from '../conformance/verdict.js';

/**
 * The judge of an engine that does its own I/O (decision 0110): everything is read off the traffic the mocks saw and
 * the histories the engine answered each step with, never off a projection the engine had to write.
 *
 * - A request's refusals and lenient findings are listed under the behaviour the mock's rule names, else
 *   provider-accepts; but a request sent while the engine compacted, or in the first turn after a compaction, a
 *   resume or a branch, is listed under survives-compaction / -resume / -branch: that step is what it tests, judged
 *   on the next requests.
 * - The first request after such a step is held against the last one before it: every assistant turn with tool
 *   calls the earlier request carried must come back equal as a value (key order aside), or, after a compaction,
 *   may have been summarised away, never kept with its reasoning changed or dropped.
 * - A resume must answer the history it stored.
 * - A thinking block bound to its prefix (route table `thinkingBinding`) must not be sent after the prefix changed.
 * - Two sessions of the same target and program must send the same conversations: a difference is state leaked
 *   between sessions (decision 0103), listed under history-unmutated (the session sent what its history does not hold).
 */

/** The behaviour a step tests, judged on the requests it and the next turn send. */
const STEP_BEHAVIOUR: Partial<Record<OwnIoStep['type'], Behaviour>> = {
  compact: 'survives-compaction',
  resume: 'survives-resume',
  branch: 'survives-branch',
};

interface Listed {
  behaviour: Behaviour;
  /** n/a: a step the program ran whose next turn never got a request accepted, with why (nothing to judge it on). */
  status: 'fail' | 'warn' | 'pass' | 'n/a';
  detail: string;
}

const KNOWN = new Set<string>(BEHAVIOURS);
/** Rules whose refusal says exactly what was sent wrong (thinking sent after its prefix or model changed). */
const OWN_CAUSE = new Set<string>(['binding-respected']);
const columnOf = (f: Finding): Behaviour => (KNOWN.has(f.rule) ? (f.rule as Behaviour) : 'provider-accepts');
const refused = (r: SeenRequest) => r.status < 200 || r.status >= 300;

const describe = (r: SeenRequest, f?: Finding) =>
  `request #${r.seq} to ${r.provider} answered ${r.status}${f ? `: ${f.rule}: ${f.detail ?? f.rejection}` : ''}`;

/** The conversation of a request body: the messages (Chat, Messages), the input items (Responses) or contents. */
export function conversationOf(body: unknown): unknown[] {
  if (!isPlainObject(body)) return [];
  const list = body.messages ?? body.input ?? body.contents;
  return Array.isArray(list) ? list : [];
}

/** The ids of the tool calls an assistant turn makes: Chat `tool_calls`, Messages `tool_use` blocks, Responses items. */
export function toolCallIds(message: unknown): string[] {
  if (!isPlainObject(message)) return [];
  if (message.type === 'function_call' && typeof message.call_id === 'string') return [message.call_id];
  if (message.role !== 'assistant') return [];
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const blocks = Array.isArray(message.content) ? message.content : [];
  return [
    ...calls.flatMap((c) => (isPlainObject(c) && typeof c.id === 'string' ? [c.id] : [])),
    ...blocks.flatMap((b) => (isPlainObject(b) && b.type === 'tool_use' && typeof b.id === 'string' ? [b.id] : [])),
  ];
}

/** The keys whose values differ between two versions of one turn (its carriers, most often). */
function changedKeys(before: unknown, after: unknown): string[] {
  if (!isPlainObject(before) || !isPlainObject(after)) return ['the turn'];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => !isDeepStrictEqual(before[k], after[k]));
}

const THINKING = new Set(['thinking', 'redacted_thinking']);

/** A Messages turn without its thinking blocks. */
function withoutThinking(turn: unknown): unknown {
  if (!isPlainObject(turn) || !Array.isArray(turn.content)) return turn;
  return { ...turn, content: turn.content.filter((b) => !(isPlainObject(b) && THINKING.has(String(b.type)))) };
}

/**
 * Holds the first request after a compaction, resume or branch against the last request before it: each tool-call
 * turn the earlier one carried comes back equal, or (compaction only) not at all.
 */
export function keptTurns(
  before: SeenRequest,
  after: SeenRequest,
  behaviour: Behaviour,
  mayDrop: boolean,
  bound = false,
): Listed | undefined {
  const earlier = conversationOf(before.body);
  const problems: string[] = [];
  let kept = 0;
  const keeps = (turn: unknown, again: unknown) =>
    isDeepStrictEqual(turn, again) ||
    // Thinking bound to its prefix cannot go back once the prefix changed (a compaction's summary changes it): its
    // removal is the right move there, and binding-respected judges the blocks that were sent.
    (bound && isDeepStrictEqual(withoutThinking(turn), again));
  // Each later tool-call turn is paired with the earlier turn it keeps: an equal one first, else the most recent one
  // calling the same tools (an id may repeat in a conversation carried over from elsewhere).
  const paired = new Set<number>();
  for (const again of conversationOf(after.body)) {
    const ids = toolCallIds(again);
    if (ids.length === 0) continue;
    const candidates = earlier
      .map((turn, i) => ({ turn, i }))
      .filter(({ turn, i }) => !paired.has(i) && toolCallIds(turn).some((id) => ids.includes(id)));
    const pick = candidates.find(({ turn }) => keeps(turn, again)) ?? candidates.at(-1);
    if (!pick) continue; // a turn the earlier request did not hold: new since
    paired.add(pick.i);
    kept += 1;
    if (!keeps(pick.turn, again))
      problems.push(
        `the turn calling ${ids.join(', ')} came back changed in ${changedKeys(pick.turn, again).join(', ')}`,
      );
  }
  if (!mayDrop)
    earlier.forEach((turn, i) => {
      const ids = toolCallIds(turn);
      if (ids.length > 0 && !paired.has(i)) problems.push(`the turn calling ${ids.join(', ')} is gone`);
    });
  if (problems.length)
    return {
      behaviour,
      status: 'fail',
      detail: `request #${after.seq} against request #${before.seq}: ${problems.join('; ')}`,
    };
  return kept > 0
    ? {
        behaviour,
        status: 'pass',
        detail: `request #${after.seq}: ${kept} tool-call turn(s) kept as request #${before.seq} sent them`,
      }
    : undefined;
}

/** Every finding of one session's steps, each under one behaviour. */
export function judgeSession(
  steps: readonly SteppedRequests[],
  options: { binds: (body: unknown) => boolean; sourceOf?: (branch: string) => SeenRequest | undefined },
): Listed[] {
  const listed: Listed[] = [];
  const ledger = new BindingLedger();
  let phase: Behaviour | undefined;
  let last: SeenRequest | undefined;
  let pending: { behaviour: Behaviour; before: SeenRequest; mayDrop: boolean } | undefined;
  let storedBefore: unknown[] | undefined;
  // The last request of each turn, by the length of the history the engine stored after it: a branch point.
  const turnEnds = new Map<number, SeenRequest>();
  const brokenBefore = new Set<string>();
  for (const { step, requests, history } of steps) {
    const stepBehaviour = STEP_BEHAVIOUR[step.type];
    if (stepBehaviour) phase = stepBehaviour;
    if (step.type === 'resume' && storedBefore && !isDeepStrictEqual(storedBefore, history))
      listed.push({
        behaviour: 'survives-resume',
        status: 'fail',
        detail: 'the history the engine answered after resume differs from the one it stored before',
      });
    // A branch continues from its branch point: the turns up to it must come back, the later ones not at all.
    const before = step.type === 'branch' ? turnEnds.get(step.atMessage) : last;
    if (stepBehaviour && before) pending = { behaviour: stepBehaviour, before, mayDrop: step.type === 'compact' };
    if (step.type === 'branch' && !before)
      listed.push({
        behaviour: 'survives-branch',
        status: 'fail',
        detail: `no turn ended with ${step.atMessage} stored messages: the branch point is not one the engine stored`,
      });
    for (const r of requests) {
      for (const f of r.findings) {
        // A step is blamed for what it broke, not for a rule the turns before it already broke.
        // A refusal for bound thinking names its own cause, whatever step it follows: the step did not break it.
        const behaviour = phase && !brokenBefore.has(f.rule) && !OWN_CAUSE.has(f.rule) ? phase : columnOf(f);
        listed.push({ behaviour, status: f.lenient ? 'warn' : 'fail', detail: describe(r, f) });
        if (!phase && !f.lenient) brokenBefore.add(f.rule);
      }
      const under = phase;
      if (refused(r) && !r.findings.some((f) => !f.lenient))
        listed.push({ behaviour: under ?? 'provider-accepts', status: 'fail', detail: describe(r) });
      if (options.binds(r.body))
        for (const b of ledger.judge(r.seq, r.route, r.provider, r.body))
          listed.push({ behaviour: 'binding-respected', status: b.status, detail: b.detail });
      if (!refused(r)) ledger.observe(r.seq, r.body, r.answer);
      // The summarising call of a compaction is the engine's own request, not the conversation it continues.
      if (pending && step.type === 'turn' && !refused(r)) {
        const bound = pending.mayDrop && options.binds(r.body);
        const kept = keptTurns(pending.before, r, pending.behaviour, pending.mayDrop, bound);
        if (kept) listed.push(kept);
        else listed.push({ behaviour: pending.behaviour, status: 'pass', detail: `request #${r.seq} accepted` });
        pending = undefined;
      }
      if (step.type === 'turn') last = r;
    }
    if (step.type === 'turn') {
      phase = undefined;
      if (last) turnEnds.set(history.length, last);
      if (pending) listed.push(notReached(pending.behaviour, requests));
      pending = undefined;
    }
    storedBefore = history;
  }
  if (pending) listed.push(notReached(pending.behaviour, []));
  return listed;
}

/**
 * A step whose next turn had no accepted request to judge it on: every one was refused (for a rule the turns before
 * the step already broke, listed under that rule), or none was sent. Said so, rather than "no request exercised it",
 * which would hide that the engine never got past the step cleanly.
 */
function notReached(behaviour: Behaviour, requests: readonly SeenRequest[]): Listed {
  const rules = [...new Set(requests.flatMap((r) => r.findings.map((f) => f.rule)))];
  const why =
    requests.length === 0
      ? 'the engine sent no request in the turn after it'
      : `every request of the turn after it was refused (${rules.length ? rules.join(', ') : `status ${requests.map((r) => r.status).join(', ')}`}), a rule the turns before it already broke: fix that first`;
  return { behaviour, status: 'n/a', detail: `not judged: ${why}` };
}

/**
 * The conversation of each request, as text: two sessions of one program must send the same ones (a fresh mock
 * answers the same conversation the same way).
 */
export const conversations = (steps: readonly SteppedRequests[]): string[] =>
  steps.flatMap((s) => s.requests.map((r) => JSON.stringify(conversationOf(r.body))));

/** A second session that sent another conversation than the first: state leaked between them. */
export function leakBetween(first: readonly SteppedRequests[], second: readonly SteppedRequests[]): Listed {
  const a = conversations(first);
  const b = conversations(second);
  const leak = sessionLeak(a, b, Math.max(a.length, b.length) - 1);
  if (!leak && b.length <= a.length)
    return {
      behaviour: 'history-unmutated',
      status: 'pass',
      detail: `a second session of the same target sent the same ${a.length} conversations`,
    };
  return {
    behaviour: 'history-unmutated',
    status: 'fail',
    detail: `state leaked between sessions: the second session of the same target sent, as request ${(leak?.call ?? a.length) + 1}, ${leak?.detail ?? 'a request the first session did not send'}`,
  };
}

/**
 * The checks of one target: every behaviour, its worst finding first. A behaviour the mock judges on every request
 * (`mockJudges`) with nothing listed passed over `requests` requests; any other with nothing listed is n/a with why.
 */
export function ownIoChecks(
  listed: readonly Listed[],
  requests: number,
  mockJudges: (b: Behaviour) => boolean,
  notExercised: (b: Behaviour) => string,
): Check[] {
  return BEHAVIOURS.map((behaviour) => {
    const mine = listed.filter((l) => l.behaviour === behaviour);
    if (mine.length === 0)
      return requests > 0 && mockJudges(behaviour)
        ? { behaviour, status: 'pass', detail: `${requests} requests, none broke it` }
        : { behaviour, status: 'n/a', detail: notExercised(behaviour) };
    const status: CheckStatus = aggregateStatus(mine.map((l) => l.status));
    return {
      behaviour,
      status,
      detail: mine
        .filter((l) => l.status === status)
        .map((l) => l.detail)
        .join('\n'),
    };
  });
}
