import { randomBytes } from 'node:crypto';
import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import type { Scenario } from '../../../shared/scenarios/scenario.js';
import type { ServeLogEntry, ServeMiss } from '../serve/serve-log.js';
import { startServe } from '../serve/start-serve.js';
import { agentEnv } from '../serve/agent-env.js';
import { startAgent, type AgentExit } from './agent-process.js';
import { userTurns } from './turns.js';
import type { Fault } from '../../../shared/faults/fault-catalogue.js';
import type { FaultVerdict } from '../../../judge/faults/fault-recovery-judge.js';

/**
 * How the agent is driven through a scenario's user turns:
 *  - `once`: one process (`-- cmd`); it reads REASONING_REPLAY_TURNS itself, or just runs its task;
 *  - `each-turn`: `--each-turn cmd` once per user turn, the turn in REASONING_REPLAY_TURN/_MESSAGE
 *    and on stdin; the agent keeps its own conversation between calls (its session store);
 *  - `jsonl`: one long-lived process spoken to over stdin/stdout (docs/judge-your-agent.md).
 */
export type DriveMode =
  { kind: 'once'; argv: string[] } | { kind: 'each-turn'; command: string } | { kind: 'jsonl'; argv: string[] };

export interface RunAgentOptions {
  mode: DriveMode;
  specs: ProviderSpec[];
  fixtures: FixtureStore;
  table: RouteTable;
  /** Scenarios to run, one agent session each; empty: one session with mocks that follow the client. */
  scenarios: Scenario[];
  timeoutMs: number;
  logBodies?: boolean;
  seed?: number;
  /** Contested rules refuse (docs/decisions/0044). */
  strict?: boolean;
  /** Faults of specs/faults.json to inject, each once per session. */
  faults?: readonly Fault[];
  onEntry?: (entry: ServeLogEntry) => void;
  onProgress?: (line: string) => void;
}

export interface SessionResult {
  scenario: string | null;
  runId: string;
  exit: AgentExit;
  requests: number;
  /** This session's requests, in order (also in RunResult.entries). */
  entries: ServeLogEntry[];
  /** Requests of this session that reached no mock: a protocol the mocks do not speak. */
  misses: ServeMiss[];
  /** With faults: how each injected fault went, and the faults never injected (no answer they applied to came). */
  faults?: { verdicts: FaultVerdict[]; notReached: string[] };
}

export interface RunResult {
  entries: ServeLogEntry[];
  sessions: SessionResult[];
}

const JSONL_TURN_TIMEOUT_NOTE = 'a {"type":"turn-done"} line on stdout';

/** One agent session against fresh mocks: every request it sends is collected with its verdict. */
async function runSession(
  options: RunAgentOptions,
  scenario: Scenario | undefined,
  entries: ServeLogEntry[],
): Promise<SessionResult> {
  const runId = `rr-${randomBytes(6).toString('hex')}`;
  const before = entries.length;
  const misses: ServeMiss[] = [];
  const serve = await startServe({
    port: 0,
    specs: options.specs,
    fixtures: options.fixtures,
    table: options.table,
    ...(scenario ? { defaultScenario: scenario.id } : {}),
    runId,
    ...(options.logBodies ? { logBodies: true } : {}),
    seed: options.seed ?? 0,
    ...(options.strict ? { strict: true } : {}),
    ...(options.faults?.length ? { faults: options.faults } : {}),
    log: (entry) => {
      entries.push(entry);
      options.onEntry?.(entry);
    },
    onMiss: (miss) => misses.push(miss),
  });
  const turns = userTurns(scenario);
  const env = {
    ...agentEnv({ url: serve.url, specs: options.specs, runId, ...(scenario ? { scenario: scenario.id } : {}) }),
    REASONING_REPLAY_TURNS: JSON.stringify(turns),
  };
  const deadline = Date.now() + options.timeoutMs;
  let exit: AgentExit;
  try {
    const mode = options.mode;
    if (mode.kind === 'once') {
      exit = await startAgent(mode.argv, env, options.timeoutMs).exited;
    } else if (mode.kind === 'each-turn') {
      exit = { code: 0, signal: null, timedOut: false, output: '' };
      for (let i = 0; i < turns.length; i++) {
        options.onProgress?.(`turn ${i + 1}/${turns.length}`);
        const agent = startAgent(
          [mode.command],
          { ...env, REASONING_REPLAY_TURN: String(i), REASONING_REPLAY_MESSAGE: turns[i]! },
          Math.max(1, deadline - Date.now()),
          'pipe',
        );
        agent.child.stdin!.end(JSON.stringify({ type: 'turn', turn: i, role: 'user', content: turns[i] }) + '\n');
        const turnExit = await agent.exited;
        exit = { ...turnExit, output: exit.output + turnExit.output };
        if (turnExit.failure) {
          exit.failure = `turn ${i} ${turnExit.failure}`;
          break;
        }
      }
    } else {
      exit = await driveJsonl(mode.argv, env, turns, options);
    }
  } finally {
    await serve.close();
  }
  const own = entries.slice(before);
  const faults = serve.faults
    ? { verdicts: serve.faults.verdicts(), notReached: serve.faults.notReached() }
    : undefined;
  return {
    scenario: scenario?.id ?? null,
    runId,
    exit,
    requests: own.length,
    entries: own,
    misses,
    ...(faults ? { faults } : {}),
  };
}

/** The JSON-lines form: a turn line in, wait for its turn-done line out, then an end line and EOF. */
async function driveJsonl(
  argv: string[],
  env: Record<string, string>,
  turns: string[],
  options: RunAgentOptions,
): Promise<AgentExit> {
  const agent = startAgent(argv, env, options.timeoutMs, 'pipe');
  const done = new Set<number>();
  const waiters = new Map<number, () => void>();
  agent.onLine((line) => {
    if (!line.startsWith('{')) return;
    try {
      const msg = JSON.parse(line) as { type?: unknown; turn?: unknown };
      if (msg.type === 'turn-done' && typeof msg.turn === 'number') {
        done.add(msg.turn);
        waiters.get(msg.turn)?.();
      }
    } catch {
      /* not a protocol line: the agent's own output */
    }
  });
  const stdin = agent.child.stdin!;
  stdin.on('error', () => undefined); // an agent that exits early closes its stdin: its exit says why
  let exitedEarly = false;
  const exited = agent.exited.then((e) => {
    exitedEarly = true;
    for (const w of waiters.values()) w();
    return e;
  });
  for (let i = 0; i < turns.length && !exitedEarly; i++) {
    options.onProgress?.(`turn ${i + 1}/${turns.length}`);
    const turnDone = new Promise<void>((resolve) => waiters.set(i, resolve));
    stdin.write(JSON.stringify({ type: 'turn', turn: i, role: 'user', content: turns[i] }) + '\n');
    if (!done.has(i)) await turnDone;
  }
  if (!exitedEarly) stdin.end(JSON.stringify({ type: 'end' }) + '\n');
  const exit = await exited;
  const missing = turns.findIndex((_, i) => !done.has(i));
  if (!exit.failure && missing >= 0)
    return { ...exit, failure: `ended before turn ${missing} was done (expected ${JSONL_TURN_TIMEOUT_NOTE})` };
  return exit;
}

/** Runs the agent once per scenario (or once, following the client) and collects every verdict. */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  const entries: ServeLogEntry[] = [];
  const sessions: SessionResult[] = [];
  for (const scenario of options.scenarios.length ? options.scenarios : [undefined]) {
    options.onProgress?.(`scenario ${scenario?.id ?? 'follow-client'}`);
    sessions.push(await runSession(options, scenario, entries));
  }
  return { entries, sessions };
}
