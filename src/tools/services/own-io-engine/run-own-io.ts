import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import { policyFor } from '../../../shared/route-table/policy-for.js';
import {
  OWN_IO_PROTOCOL,
  type OwnIoDone,
  type OwnIoStep,
  type OwnIoTarget,
  type SeenRequest,
  type SteppedRequests,
} from '../../../shared/engine-io/own-io-protocol.js';
import { judgeSession, leakBetween, ownIoChecks } from '../../../judge/own-io/judge-own-io.js';
import { cellStatus, type Behaviour, type Check, type CheckStatus } from '../../../judge/conformance/verdict.js';
import { assertValid } from '../../../shared/validation/validate.js';
import { EngineProcess } from '../engine-adapters/external-engine.js';
import { startServe } from '../serve/start-serve.js';
import { MOCK_API_KEY } from '../serve/agent-env.js';
import type { ServeLogEntry } from '../serve/serve-log.js';
import { judges } from '../run-report/client-report.js';
import { FOLLOW_TURNS } from '../agent-runner/turns.js';

/**
 * `check --engine CMD --engine-io own` (decision 0110): the engine sends its requests itself, to provider mocks the
 * harness starts as `run` does, following the client (they call the engine's own tools and answer a request without
 * tools, such as a summarising call, in words). Each target is driven through one program of steps, plain and
 * streamed, twice in fresh sessions (the second shows state leaked between them); the judge reads the traffic and the
 * histories the engine answered with (src/judge/own-io/judge-own-io.ts).
 */
export interface OwnIoOptions {
  command: string;
  /** Deadline for one step's answer, ms (the engine's own requests included). */
  timeoutMs: number;
  /** The targets to judge. */
  targets: ProviderSpec[];
  /** Every spec: the mocks serve them all, so a request the engine sends to another provider is judged too. */
  specs: ProviderSpec[];
  fixtures: FixtureStore;
  table: RouteTable;
  onProgress?: (line: string) => void;
}

export interface OwnIoResult {
  provider: string;
  model: string;
  route: string;
  stream: boolean;
  status: CheckStatus;
  /** The engine declined the target (its answer to session.open): nothing was judged for it. */
  declined?: string;
  checks: Check[];
  requests: number;
}

/** The third user turn on, after the two that make any tool-using agent run a tool round each. */
const MORE_TURNS = ['Once more, please: another tool call.', 'And one last tool call.', 'Finish with one more.'];

/**
 * The program every session runs: two turns, a resume from the engine's storage, a turn, a branch from the first
 * turn's end, a turn on the branch, the engine's own compaction, a turn after it. `first` is filled in with the
 * length of the history the engine stored after the first turn.
 */
function program(session: string, firstTurnLength: () => number): Array<() => OwnIoStep> {
  const branch = `${session}.branch`;
  return [
    () => ({ type: 'turn', session, content: FOLLOW_TURNS[0]! }),
    () => ({ type: 'turn', session, content: FOLLOW_TURNS[1]! }),
    () => ({ type: 'resume', session }),
    () => ({ type: 'turn', session, content: MORE_TURNS[0]! }),
    () => ({ type: 'branch', session, into: branch, atMessage: firstTurnLength() }),
    () => ({ type: 'turn', session: branch, content: MORE_TURNS[1]! }),
    () => ({ type: 'compact', session: branch }),
    () => ({ type: 'turn', session: branch, content: MORE_TURNS[2]! }),
  ];
}

/** Why a behaviour no request exercised is n/a for an engine doing its own I/O. */
function notExercised(behaviour: Behaviour): string {
  switch (behaviour) {
    case 'fallback-recovers':
      return 'the mocks following the engine provoke no unknown-field rejection';
    case 'binding-respected':
      return 'the target’s model does not bind thinking to its prefix';
    case 'compaction-kept':
      return 'the mock issued no compaction item';
    default:
      return 'no request exercised it';
  }
}

const seen = (e: ServeLogEntry, answers: Map<number, unknown>): SeenRequest => ({
  seq: e.seq,
  provider: e.provider,
  route: e.route,
  status: e.status,
  findings: e.findings,
  body: e.body,
  ...(answers.has(e.seq) ? { answer: answers.get(e.seq) } : {}),
});

/** One session of the program against fresh mocks; undefined when the engine declined the target. */
async function runSession(
  engine: EngineProcess,
  options: OwnIoOptions,
  target: Omit<OwnIoTarget, 'baseUrl' | 'apiKey'>,
  session: string,
  stream: boolean,
  storeDir: string,
): Promise<{ steps: SteppedRequests[] } | { declined: string }> {
  const entries: ServeLogEntry[] = [];
  const answers = new Map<number, unknown>();
  const serve = await startServe({
    port: 0,
    specs: options.specs,
    fixtures: options.fixtures,
    table: options.table,
    runId: session,
    logBodies: true,
    seed: 0,
    log: (e) => entries.push(e),
    onAnswer: (seq, answer) => answers.set(seq, answer),
  });
  try {
    const opened = await engine.ask('session.open', {
      session,
      stream,
      storeDir,
      target: { ...target, baseUrl: `${serve.url}/${target.provider}`, apiKey: MOCK_API_KEY },
    });
    if (typeof opened.error === 'string') return { declined: opened.error };
    const steps: SteppedRequests[] = [];
    let firstLength = 0;
    for (const make of program(session, () => firstLength)) {
      const step = make();
      const before = entries.length;
      const answer = await engine.call(step.type, { ...step });
      let history: unknown[];
      try {
        history = assertValid<OwnIoDone>(answer, 'own-io-step-answer.schema.json', `its ${step.type} answer`).history;
      } catch (err) {
        throw engine.failure(step.type, err instanceof Error ? err.message : String(err));
      }
      if (steps.length === 0) firstLength = history.length;
      steps.push({ step, history, requests: entries.slice(before).map((e) => seen(e, answers)) });
    }
    await engine.call('session.close', { session });
    return { steps };
  } finally {
    await serve.close();
  }
}

/** Every target, plain and streamed: its checks from the traffic of two sessions of the program. */
export async function runOwnIo(options: OwnIoOptions): Promise<OwnIoResult[]> {
  const engine = new EngineProcess(options.command, options.timeoutMs);
  const storeDir = mkdtempSync(join(tmpdir(), 'rr-own-io-'));
  const results: OwnIoResult[] = [];
  try {
    const hello = await engine.ask('hello', { protocol: OWN_IO_PROTOCOL, io: 'own' });
    const capabilities = Array.isArray(hello.capabilities) ? hello.capabilities : [];
    if (!capabilities.includes('own-io'))
      throw engine.failure('hello', 'it does not list "own-io" in its capabilities: it cannot send its own requests');
    for (const spec of options.targets) {
      const host = new URL(spec.endpoint.baseUrl).host;
      const route = policyFor(options.table, spec);
      const binding = options.table.routes.find((r) => r.id === route.routeId)?.thinkingBinding?.models[0];
      // A route whose newer models bind thinking to its prefix is judged on one of those too (binding-respected).
      const models = [spec.target.model, ...(binding && !route.bindsThinking ? [binding] : [])];
      for (const model of models) {
        const binds = !!resolveRoute(options.table, { provider: spec.target.provider, host, model }).bindsThinking;
        for (const stream of [false, true]) {
          const name = `${spec.id}.${model}.${stream ? 'stream' : 'plain'}`;
          options.onProgress?.(name);
          const target = { provider: spec.id, family: spec.family, model };
          const first = await runSession(engine, options, target, `${name}.1`, stream, storeDir);
          const base = { provider: spec.id, model, route: route.routeId, stream };
          if ('declined' in first) {
            results.push({ ...base, status: 'n/a', declined: first.declined, checks: [], requests: 0 });
            break;
          }
          const second = await runSession(engine, options, target, `${name}.2`, stream, storeDir);
          const listed = judgeSession(first.steps, { binds: () => binds });
          if ('steps' in second) listed.push(leakBetween(first.steps, second.steps));
          const requests = first.steps.reduce((n, s) => n + s.requests.length, 0);
          const checks = ownIoChecks(listed, requests, (b) => judges(spec, b, []), notExercised);
          results.push({ ...base, status: cellStatus(checks), checks, requests });
        }
      }
    }
  } finally {
    await engine.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
  return results;
}

/** The behaviours of the program's steps: every run exercises them, so one left n/a says why (never silently). */
const STEPS = new Set<Behaviour>(['survives-compaction', 'survives-resume', 'survives-branch']);

/** One line per target and mode, then the failing and warning checks with their detail, and a step left unjudged. */
export function formatOwnIo(results: readonly OwnIoResult[]): string {
  const mark = (s: CheckStatus) => (s === 'fail' ? '✗' : s === 'warn' ? '!' : s === 'pass' ? '✓' : '–');
  const lines: string[] = [];
  for (const r of results) {
    const head = `${mark(r.status)} ${r.provider} ${r.model} (${r.stream ? 'streamed' : 'not streamed'}, route ${r.route})`;
    if (r.declined) {
      lines.push(`${head}: declined by the engine: ${r.declined}`);
      continue;
    }
    const judged = r.checks.filter((c) => c.status !== 'n/a').map((c) => `${mark(c.status)}${c.behaviour}`);
    lines.push(`${head}: ${r.requests} requests; ${judged.join(' ')}`);
    for (const c of r.checks)
      if (c.status === 'fail' || c.status === 'warn' || (c.status === 'n/a' && STEPS.has(c.behaviour)))
        for (const d of c.detail.split('\n')) lines.push(`    ${mark(c.status)} ${c.behaviour}: ${d}`);
  }
  return lines.join('\n');
}
