import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { builtInEngine } from './built-in-engine.js';
import type { EngineUnderTest } from '../../judge/engine-under-test.js';
import type { OutboundRequest } from '../../engine/families/family.js';
import { specHost, type ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { ExternalEngineError } from '../../shared/errors/external-engine-error.js';

/**
 * `check --engine "<cmd>"`: the matrix through someone else's request builder. The command runs
 * once, for the whole matrix, and speaks JSON lines (docs/judge-your-agent.md, "check --engine"):
 *
 * in:
 * {"id":1,"type":"build","target":{provider,host,model,family,baseUrl,path},"history":{messages},"options":{stream?,tools?}}
 *   out: {"id":1,"body":{...}}   (optionally "path" and "headers")   or   {"id":1,"error":"why"}
 *
 * It is given the target, never this project's route policy: the adapter decides with its own
 * table, and the judge holds the result against the provider specs and our table. Answers are read
 * back into history by this project's parsers (the adapter only builds bodies), and no fallback
 * retry is attempted on its behalf.
 */
export interface ExternalEngineOptions {
  command: string;
  /** Deadline for one build answer, ms. */
  timeoutMs?: number;
}

export interface ExternalEngine extends EngineUnderTest {
  /** Ends the adapter process (EOF on its stdin, then SIGTERM if it lingers). */
  close(): Promise<void>;
  /** What the adapter printed on stderr, last part: shown when it fails. */
  stderr(): string;
}

interface Pending {
  resolve: (value: { body: Record<string, unknown>; path?: string; headers?: Record<string, string> }) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export function startExternalEngine(options: ExternalEngineOptions): ExternalEngine {
  const child: ChildProcess = spawn(options.command, { shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let stderr = '';
  let dead: string | undefined;
  child.stderr!.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-8000);
  });
  const failAll = (why: string) => {
    dead = why;
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(new ExternalEngineError(why));
      pending.delete(id);
    }
  };
  child.once('error', (err) => failAll(`engine command could not start: ${err.message}`));
  child.once('exit', (code, signal) =>
    failAll(
      `engine command exited ${signal ?? code}${stderr ? `; its stderr ends: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`,
    ),
  );
  child.stdin!.on('error', () => undefined);
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      return; // not a protocol line; adapters should log to stderr, but a stray print is not fatal
    }
    if (!isPlainObject(msg) || typeof msg.id !== 'number') return;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    clearTimeout(p.timer);
    if (typeof msg.error === 'string')
      return p.reject(new ExternalEngineError(`engine refused to build: ${msg.error}`));
    if (!isPlainObject(msg.body)) return p.reject(new ExternalEngineError('engine answer has no "body" object'));
    p.resolve({
      body: msg.body,
      ...(typeof msg.path === 'string' ? { path: msg.path } : {}),
      ...(isPlainObject(msg.headers) ? { headers: msg.headers as Record<string, string> } : {}),
    });
  });

  const build = (payload: Record<string, unknown>) =>
    new Promise<{ body: Record<string, unknown>; path?: string; headers?: Record<string, string> }>(
      (resolve, reject) => {
        if (dead) return reject(new ExternalEngineError(dead));
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(
            new ExternalEngineError(`engine gave no answer to build #${id} within ${options.timeoutMs ?? 10_000} ms`),
          );
        }, options.timeoutMs ?? 10_000);
        pending.set(id, { resolve, reject, timer });
        child.stdin!.write(JSON.stringify({ id, type: 'build', ...payload }) + '\n');
      },
    );

  return {
    name: options.command,
    startSession() {
      const reader = builtInEngine.startSession();
      return {
        async turn({ history, spec, options: requestOptions }, send) {
          const path = requestPath(spec, requestOptions.stream === true);
          const target = {
            provider: spec.target.provider,
            host: specHost(spec),
            model: spec.target.model,
            family: spec.family,
            baseUrl: spec.endpoint.baseUrl,
            path,
          };
          const built = await build({ target, history, options: requestOptions });
          const request: OutboundRequest = {
            family: spec.family,
            method: 'POST',
            path: built.path ?? path,
            headers: { 'content-type': 'application/json', ...(built.headers ?? {}) },
            body: built.body,
          };
          return { attempts: [{ attempt: 1, request, response: await send(request) }], withheld: [] };
        },
        readAnswer: (response, policy, spec) => reader.readAnswer(response, policy, spec),
      };
    },
    stderr: () => stderr,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGTERM'), 2000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin!.end();
      }),
  };
}

/** The provider's path for this model, as its docs write it: `{model}` filled, the stream path when streaming. */
function requestPath(spec: ProviderSpec, stream: boolean): string {
  const path = stream && spec.endpoint.streamPath ? spec.endpoint.streamPath : spec.endpoint.path;
  return path.replace('{model}', encodeURIComponent(spec.target.model));
}
