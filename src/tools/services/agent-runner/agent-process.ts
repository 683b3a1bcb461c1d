import { spawn, type ChildProcess } from 'node:child_process';
import { redactText } from '../recorder/redact.js';
import { secretsFromEnv } from '../serve/redact-body.js';

/** How an agent process ended, with the tail of what it printed (shown when it failed). */
export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Why it counts as failed, or undefined when it exited 0 in time. */
  failure?: string;
  /** The tail of stdout + stderr, the caller's credentials redacted: it reaches logs, junit.xml and shard files. */
  output: string;
}

/** Kept of an agent's stdout + stderr: the end is what explains a failure. */
const OUTPUT_TAIL = 16_000;

export interface AgentProcess {
  child: ChildProcess;
  /** Lines of stdout as they arrive (the JSON-lines protocol reads them). */
  onLine(listener: (line: string) => void): void;
  exited: Promise<AgentExit>;
  kill(): void;
}

/**
 * Starts the agent in its own process group (so a timeout ends its children too), with `env` added
 * to ours. argv[0] is run directly; one string with spaces is run through the shell, as a CI line is.
 */
export function startAgent(
  argv: readonly string[],
  env: Record<string, string>,
  timeoutMs: number,
  stdin: 'pipe' | 'ignore' = 'ignore',
): AgentProcess {
  const shell = argv.length === 1 && /\s/.test(argv[0]!);
  const child = spawn(argv[0]!, argv.slice(1), {
    env: { ...process.env, ...env },
    stdio: [stdin, 'pipe', 'pipe'],
    detached: true,
    shell,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > OUTPUT_TAIL * 2) output = output.slice(-OUTPUT_TAIL);
  };
  const listeners: Array<(line: string) => void> = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    keep(chunk);
    pending += chunk.toString('utf8');
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      for (const l of listeners) l(line);
    }
  });
  child.stderr!.on('data', keep);
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, timeoutMs);
  // An agent may print its own key (a debug line, an SDK's error). Redacted once here, where the output is kept,
  // so the terminal, junit.xml and shard files all get the same masked text.
  const secrets = secretsFromEnv();
  const exited = new Promise<AgentExit>((resolve) => {
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({
        code: null,
        signal: null,
        timedOut: false,
        failure: `could not start ${argv[0]}: ${err.message}`,
        output: redactText(output, secrets),
      });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const tail = output.length > OUTPUT_TAIL ? `…${output.slice(-OUTPUT_TAIL)}` : output;
      const failure = timedOut
        ? `did not finish within --timeout ${timeoutMs} ms (killed)`
        : code !== 0
          ? signal
            ? `was killed by ${signal}`
            : `exited ${code}`
          : undefined;
      resolve({ code, signal, timedOut, ...(failure ? { failure } : {}), output: redactText(tail, secrets) });
    });
  });
  return { child, onLine: (l) => listeners.push(l), exited, kill: killGroup };
}
