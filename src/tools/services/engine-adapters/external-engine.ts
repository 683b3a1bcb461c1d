import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { builtInPolicy } from './built-in-engine.js';
import { readBuiltInAnswer } from './read-built-in-answer.js';
import {
  ENGINE_OPERATIONS,
  type AnswerInput,
  type EngineOperation,
  type EngineUnderTest,
  type SendRequest,
  type StoreUnderTest,
  type TurnAttempt,
  type TurnInput,
  type TurnResult,
} from '../../../judge/engine-under-test.js';
import type { OutboundRequest } from '../../../engine/families/family.js';
import {
  STANDARD_CARRIER_FIELDS,
  type History,
  type Message,
  type StandardCarrierField,
} from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ExchangeResponse } from '../../../shared/transport/transport.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { ExternalEngineError } from '../../../shared/errors/external-engine-error.js';
import { EngineFailedError } from '../../../shared/errors/engine-failed-error.js';
import { assertValid } from '../../../shared/validation/validate.js';

/**
 * `check --engine "<cmd>"`: the matrix through someone else's engine. The command runs once, for the
 * whole matrix, and speaks JSON lines (docs/judge-your-agent.md, "check --engine"; decision 0064):
 * a `hello` handshake first (its answer lists the operations beyond `build` the engine implements),
 * then one line per operation, each answered by one line with the same id. It is given targets,
 * never this project's route policy: it decides with its own table, and the judge holds the result
 * against the provider specs and our table. An operation it does not implement is not judged, and
 * the report says so.
 */
export interface ExternalEngineOptions {
  command: string;
  /** Deadline for one answer, ms (the handshake's too). */
  timeoutMs?: number;
}

export interface ExternalEngine extends EngineUnderTest {
  /** Ends the engine process (EOF on its stdin, then SIGTERM if it lingers). */
  close(): Promise<void>;
  /** What the engine printed on stderr, last part: shown when it fails. */
  stderr(): string;
}

/** The protocol version the handshake announces. */
export const ENGINE_PROTOCOL = 2;

interface Pending {
  type: string;
  resolve: (value: Record<string, unknown>) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** One JSON-lines conversation with the engine process. */
export class EngineProcess {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private stderrText = '';
  private dead: string | undefined;

  constructor(
    readonly command: string,
    private readonly timeoutMs: number,
  ) {
    // Its own process group, so a stop reaches what the shell started (`sh -c "a | b"` forks).
    this.child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stderr!.on('data', (c: Buffer) => {
      this.stderrText = (this.stderrText + c.toString('utf8')).slice(-8000);
    });
    this.child.once('error', (err) => this.failAll(`could not start: ${err.message}`));
    // 'close' comes after stdio ends, so the stderr it printed before exiting is in the message.
    this.child.once('close', (code, signal) => this.failAll(`exited ${signal ?? code}`));
    this.child.stdin!.on('error', () => undefined);
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.onLine(line));
  }

  stderr(): string {
    return this.stderrText;
  }

  stderrTail(): string {
    return this.stderrText.trim().split('\n').slice(-3).join(' | ');
  }

  /** The engine's own failure in `operation`: an engine error (exit 2), never a verdict on a provider. */
  failure(operation: string, problem: string): EngineFailedError {
    return new EngineFailedError(operation, problem, this.stderrTail());
  }

  private failAll(why: string): void {
    this.dead ??= why;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(this.failure(p.type, `the engine command ${why}`));
      this.pending.delete(id);
    }
  }

  private onLine(line: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not a protocol line; engines should log to stderr, but a stray print is not fatal
    }
    if (!isPlainObject(msg) || typeof msg.id !== 'number') return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    p.resolve(msg);
  }

  /** Sends one operation and waits for its answer line (an `error` answer is returned, not thrown). */
  ask(type: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      if (this.dead) return reject(this.failure(type, `the engine command ${this.dead}`));
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(this.failure(type, `no answer to ${type} #${id} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { type, resolve, reject, timer });
      this.child.stdin!.write(JSON.stringify({ id, type, ...payload }) + '\n');
    });
  }

  /**
   * Like ask, but an `error` answer throws. A `build` the engine declines (a family it does not build) fails
   * that cell as "could not be sent"; declining any other operation is the engine's failure (exit 2).
   */
  async call(type: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.ask(type, payload);
    if (typeof answer.error === 'string') {
      if (type === 'build') throw new ExternalEngineError(`engine refused ${type}: ${answer.error}`);
      throw this.failure(type, `it answered with an error: ${answer.error}`);
    }
    return answer;
  }

  /**
   * Ends stdin and waits for the engine to exit, stopping its process group after 2 s. The pipes are
   * then let go: a grandchild that still holds them must not keep the CLI from exiting.
   */
  close(): Promise<void> {
    const release = () => {
      this.child.stdout!.destroy();
      this.child.stderr!.destroy();
    };
    return new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        release();
        return resolve();
      }
      const timer = setTimeout(() => this.stopGroup(), 2000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        release();
        resolve();
      });
      this.child.stdin!.end();
    });
  }

  private stopGroup(): void {
    try {
      process.kill(-this.child.pid!, 'SIGTERM');
    } catch {
      this.child.kill('SIGTERM'); // the group is gone already, or the platform has none
    }
  }
}

/** A `body` answer (with its optional path and headers) as the request that goes out. */
function requestOf(
  answer: Record<string, unknown>,
  target: TurnInput['target'],
  proc: EngineProcess,
  operation: string,
): OutboundRequest {
  if (!isPlainObject(answer.body)) throw proc.failure(operation, 'its answer has no "body" object');
  return {
    family: target.family,
    method: 'POST',
    path: typeof answer.path === 'string' ? answer.path : target.path,
    headers: {
      'content-type': 'application/json',
      ...(isPlainObject(answer.headers) ? (answer.headers as Record<string, string>) : {}),
    },
    body: answer.body,
  };
}

const responseLine = (r: ExchangeResponse) => ({ status: r.status, headers: r.headers, body: r.body });

const withheldOf = (answer: Record<string, unknown>): StandardCarrierField[] =>
  Array.isArray(answer.withheld)
    ? STANDARD_CARRIER_FIELDS.filter((f) => (answer.withheld as unknown[]).includes(f))
    : [];

const ok = (status: number) => status >= 200 && status < 300;

/**
 * Starts the engine and shakes hands before any cell runs: an engine that does not start, exits, or
 * answers nothing within the deadline is bad input (exit 2, one line naming the command), not a
 * matrix of failures.
 */
export async function startExternalEngine(options: ExternalEngineOptions): Promise<ExternalEngine> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const proc = new EngineProcess(options.command, timeoutMs);
  let hello: Record<string, unknown>;
  try {
    hello = await proc.ask('hello', { protocol: ENGINE_PROTOCOL });
  } catch (err) {
    await proc.close();
    throw new InputError(
      '--engine',
      '',
      `"${options.command}" did not answer the handshake: ${err instanceof EngineFailedError ? `${err.problem.replace(/^the engine command /, 'it ')}${err.stderrTail ? `; its stderr ends: ${err.stderrTail}` : ''}` : String(err)}`,
      'the command must start a process that reads JSON lines on stdin and answers {"id":0,"capabilities":[...]} to {"id":0,"type":"hello"} (docs/judge-your-agent.md)',
    );
  }
  // An engine from before the handshake answers hello with an error: it builds requests, nothing more.
  const declared = Array.isArray(hello.capabilities) ? hello.capabilities : [];
  const operations = new Set<EngineOperation>(ENGINE_OPERATIONS.filter((op) => declared.includes(op)));
  if (operations.has('stream')) operations.add('read');
  let sessions = 0;

  const target = (input: Pick<TurnInput, 'target'>) => input.target;
  /** Attempts of one turn: build, send, and while the engine retries a refusal, send its retry. */
  async function turnOf(
    first: Record<string, unknown>,
    context: Record<string, unknown>,
    input: Omit<TurnInput, 'history'> & { history?: History },
    send: SendRequest,
  ): Promise<TurnResult> {
    const attempts: TurnAttempt[] = [];
    let request = requestOf(first, input.target, proc, 'build');
    let withheld: StandardCarrierField[] = [];
    // At most three attempts reach the provider: enough to see an engine that retries more than once.
    for (let n = 1; n <= 3; n++) {
      const response = await send(request);
      attempts.push({ attempt: n, request, response });
      if (ok(response.status) || !operations.has('fallback')) break;
      const answer = await proc.call('rejected', { ...context, attempt: n, response: responseLine(response) });
      if (answer.retry === false || !isPlainObject(answer.body)) break;
      withheld = [...new Set([...withheld, ...withheldOf(answer)])];
      request = requestOf(answer, input.target, proc, 'rejected');
    }
    return { attempts, withheld };
  }

  const reference = (response: ExchangeResponse, input: AnswerInput) =>
    readBuiltInAnswer(response, builtInPolicy(input));
  const readWith = async (response: ExchangeResponse, input: AnswerInput, extra: Record<string, unknown>) => {
    const streamed = typeof response.body === 'string';
    // What the engine does not read is read by this project's parsers, and not judged (the report says so).
    if (!operations.has(streamed ? 'stream' : 'read')) return reference(response, input);
    const answer = await proc.call('read', { ...extra, target: target(input), response: responseLine(response) });
    if (!isPlainObject(answer.message)) throw proc.failure('read', 'its answer has no "message" object');
    try {
      return assertValid<Message>(answer.message, 'history.schema.json#/definitions/message', 'its message');
    } catch (err) {
      throw proc.failure('read', err instanceof Error ? err.message : String(err));
    }
  };

  /** A history the engine answered, checked against the history schema: one it got wrong is its failure. */
  const historyOf = (value: unknown, operation: string): History => {
    try {
      return assertValid<History>(value, 'history.schema.json', `its ${operation} history`);
    } catch (err) {
      throw proc.failure(operation, err instanceof Error ? err.message : String(err));
    }
  };

  const engine: ExternalEngine = {
    name: options.command,
    operations,
    // Another team's engine: judged by harm, not by agreement with this project's choices (decision 0102).
    judgedBy: 'harm',
    startSession() {
      const session = `s${++sessions}`;
      return {
        async turn(input, send) {
          const context = { session, target: target(input), history: input.history, options: input.options };
          return turnOf(await proc.call('build', context), context, input, send);
        },
        readAnswer: (response, input) => readWith(response, input, { session }),
      };
    },
    buildRequest: async (history, input) =>
      requestOf(
        await proc.call('build', { session: 'retention', target: target(input), history, options: input.options }),
        input.target,
        proc,
        'build',
      ),
    stderr: () => proc.stderr(),
    close: () => proc.close(),
  };
  if (operations.has('store')) {
    engine.storage = {
      async openStore(file): Promise<StoreUnderTest> {
        const { store } = await proc.call('store.open', { file });
        const call = (type: string, payload: Record<string, unknown>) => proc.call(type, { store, ...payload });
        return {
          importHistory: async (history) => String((await call('store.import', { history })).session),
          resume: async (id) => historyOf((await call('store.resume', { session: id })).history, 'store.resume'),
          branch: async (id, atTurn) => String((await call('store.branch', { session: id, atTurn })).session),
          append: async (id, messages) => void (await call('store.append', { session: id, messages })),
          async turn(id, input, send) {
            // A stored turn: the engine resumes the session (and what it learned) itself, then stores the answer.
            const context = { store, stored: id, target: target(input), options: input.options };
            const result = await turnOf(await proc.call('build', context), context, input, send);
            const last = result.attempts.at(-1)!.response;
            await call('store.exchange', { stored: id, target: target(input), response: responseLine(last) });
            return result;
          },
          close: async () => void (await call('store.close', {})),
        };
      },
    };
  }
  if (operations.has('compact')) {
    engine.compaction = {
      estimateTokens: async (history, input) =>
        Number((await proc.call('estimate', { target: target(input), history })).tokens),
      async compact(history, budget, input) {
        const a = await proc.call('compact', { target: target(input), history, budget });
        return {
          status: a.status as 'unchanged' | 'compacted' | 'over-budget',
          history: historyOf(a.history, 'compact'),
          kept: a.kept as (number | null)[],
          estimateBefore: Number(a.estimateBefore),
          estimateAfter: Number(a.estimateAfter),
          dropped: Number(a.dropped),
          ...(typeof a.reason === 'string' ? { reason: a.reason } : {}),
        };
      },
    };
  }
  return engine;
}
