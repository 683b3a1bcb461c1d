import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './figure.js';
import type { LoadPass, LoadRequest } from './load-child.js';
import { medianPass, type RoundsSummary } from './median-pass.js';
import { round } from './timing.js';

const childScript = fileURLToPath(
  new URL(`./serve-throughput-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

/** A DeepSeek tool turn as an agent sends it: user, assistant with reasoning and a call, tool result, next user turn. */
const body = (stream: boolean) =>
  JSON.stringify({
    model: 'deepseek-v4-flash',
    ...(stream ? { stream: true } : {}),
    messages: [
      { role: 'user', content: 'Where is order ORD-1234?' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'The user wants an order status; look it up.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"ORD-1234"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped","eta":"2026-12-05"}' },
      { role: 'user', content: 'And the refund for the previous one?' },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: 'lookup_order',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        },
      },
    ],
  });

type ServerName = 'serve' | 'bare' | 'aimock';
const PATHS: Record<ServerName, string> = {
  serve: '/deepseek/chat/completions',
  bare: '/deepseek/chat/completions',
  aimock: '/v1/chat/completions',
};

function startChild(args: string[]): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, childScript, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), child }));
    child.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited ${code}`)));
  });
}

/** Headers node:http writes itself, or that frame this one answer (the bare server's own framing sets them). */
const FRAMING = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function answer(
  port: number,
  path: string,
  stream: boolean,
): Promise<{ status: number; text: string; type: string; headers: Record<string, string> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body(stream),
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!FRAMING.has(name)) headers[name] = value;
  });
  // The JSON answer has a length, a stream is chunked: the bare server frames them the same way.
  if (!stream) headers['content-length'] = response.headers.get('content-length') ?? '';
  return {
    status: response.status,
    text: await response.text(),
    type: response.headers.get('content-type') ?? '',
    headers,
  };
}

const loadScript = fileURLToPath(
  new URL(`./load-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

/** One pass of the load generator, in its own process (load-child.ts); it fails on any failed request. */
function load(port: number, path: string, stream: boolean, connections: number, seconds: number): Promise<LoadPass> {
  const request: LoadRequest = { url: `http://127.0.0.1:${port}${path}`, body: body(stream), connections, seconds };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, loadScript, JSON.stringify(request)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench: the load generator exited ${code}`));
      const pass = JSON.parse(out) as LoadPass;
      if (pass.errors > 0)
        return reject(
          new Error(`bench: ${pass.errors} failed requests to port ${port}${path} (${connections} connections)`),
        );
      resolve(pass);
    });
  });
}

/**
 * `serve` (the hot path of a `run`) against a bare node:http server writing the same bytes and
 * against @copilotkit/aimock, another LLM mock server from npm, each in its own process, loaded by
 * autocannon from a process of its own (load-child.ts), as a user's load generator would: the same
 * DeepSeek tool turn, JSON and streamed, at 1 and at 50 connections. The servers take turns, round
 * by round (a burst of other load hits all three alike); each keeps the median of its rounds
 * (median-pass.ts), never the best. Goals (issues 22 and 43): serve >= 0.6x bare with p99 <= 2x
 * bare's, and ahead of aimock, in all four cases; every ratio is of figures from this same run.
 */
export async function benchServeThroughput(
  options: { rounds?: number; seconds?: number } = {},
): Promise<BenchFigure[]> {
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  const seconds = options.seconds ?? DEFAULT_SECONDS;
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-serve-'));
  const children: ChildProcess[] = [];
  try {
    const serve = await startChild(['serve']);
    children.push(serve.child);
    const json = await answer(serve.port, PATHS.serve, false);
    const sse = await answer(serve.port, PATHS.serve, true);
    if (json.status !== 200 || sse.status !== 200 || !sse.type.includes('event-stream'))
      throw new Error(`serve answered the bench request ${json.status}/${sse.status} ${sse.type}`);
    const answers = join(dir, 'answers.json');
    writeFileSync(
      answers,
      JSON.stringify({
        json: { headers: json.headers, body: json.text },
        sse: { headers: sse.headers, body: sse.text },
      }),
    );
    const bare = await startChild(['bare', answers]);
    children.push(bare.child);
    const aimock = await startChild(['aimock']);
    children.push(aimock.child);
    for (const stream of [false, true]) {
      const check = await answer(aimock.port, PATHS.aimock, stream);
      if (check.status !== 200 || !check.text.includes('lookup_order'))
        throw new Error(`aimock answered the bench request ${check.status}: ${check.text.slice(0, 200)}`);
    }
    const ports: Record<ServerName, number> = { serve: serve.port, bare: bare.port, aimock: aimock.port };
    const pids: Record<ServerName, number | undefined> = {
      serve: serve.child.pid,
      bare: bare.child.pid,
      aimock: aimock.child.pid,
    };

    const figures: BenchFigure[] = [];
    for (const stream of [false, true]) {
      for (const connections of [1, 50]) {
        const passes: Record<ServerName, LoadPass[]> = { bare: [], serve: [], aimock: [] };
        // Warm-up: JIT and caches, so a pass measures the steady state an agent's run meets.
        for (const name of SERVERS) await load(ports[name], PATHS[name], stream, connections, 1);
        for (let r = 0; r < rounds; r++)
          for (const name of SERVERS)
            passes[name].push(
              await measuredLoad(pids[name], () => load(ports[name], PATHS[name], stream, connections, seconds)),
            );
        figures.push(
          serveFigure(
            stream ? 'stream' : 'json',
            connections,
            {
              serve: medianPass(passes.serve),
              bare: medianPass(passes.bare),
              aimock: medianPass(passes.aimock),
            },
            seconds,
          ),
        );
      }
    }
    return figures;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const SERVERS = ['bare', 'serve', 'aimock'] as const;

/**
 * A pass with the server's own CPU time per request beside it: what the server spends on one answer, a figure the
 * rest of a shared machine disturbs far less than throughput (the kernel's per-process tick counts, Linux only).
 */
async function measuredLoad(pid: number | undefined, pass: () => Promise<LoadPass>): Promise<LoadPass> {
  const before = pid === undefined ? undefined : processCpuMs(pid);
  const result = await pass();
  const after = pid === undefined ? undefined : processCpuMs(pid);
  if (before === undefined || after === undefined || result.requests === 0) return result;
  return { ...result, serverCpuUsPerRequest: ((after - before) * 1000) / result.requests };
}

/** User + system CPU milliseconds of a process so far, from /proc/PID/stat (clock ticks of 10 ms); undefined elsewhere. */
export function processCpuMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
export const DEFAULT_ROUNDS = 3;
export const DEFAULT_SECONDS = 4;

/**
 * One case's figure from each server's median rounds: serve's share of bare's throughput, met when it is at least
 * 0.6x with a p99 at most twice bare's, and serve answers more than aimock.
 */
export function serveFigure(
  kind: 'json' | 'stream',
  connections: number,
  medians: Record<ServerName, RoundsSummary>,
  seconds: number,
): BenchFigure {
  const { serve: s, bare: b, aimock: a } = medians;
  const share = s.rps / b.rps;
  const p99Ratio = s.p99 / b.p99;
  return {
    id: `serve-throughput/${kind}/${connections}`,
    figure: `serve vs bare node:http, ${kind === 'stream' ? 'SSE stream' : 'JSON'}, ${connections} connection${connections === 1 ? '' : 's'}: share of bare throughput, median of ${s.rounds.length} rounds (p99 ratio, aimock in details)`,
    measured: round(share, 2),
    unit: 'x bare',
    goal: '>= 0.6x, p99 <= 2x, ahead of aimock',
    met: share >= 0.6 && p99Ratio <= 2 && s.rps > a.rps,
    details: {
      serve: roundAll(s),
      bare: roundAll(b),
      aimock: roundAll(a),
      p99Ratio: round(p99Ratio, 2),
      aimockShareOfBare: round(a.rps / b.rps, 2),
      aimockP99Ratio: round(a.p99 / b.p99, 2),
      serveOverAimock: round(s.rps / a.rps, 2),
      ...(s.serverCpuUsPerRequest !== undefined && b.serverCpuUsPerRequest !== undefined
        ? { serverCpuPerRequestOverBare: round(s.serverCpuUsPerRequest / b.serverCpuUsPerRequest, 2) }
        : {}),
      loadGenerator: 'autocannon, in its own process',
      summary: 'median of the rounds, each measure on its own',
      secondsPerPass: seconds,
      rounds: s.rounds.length,
    },
  };
}

const roundAll = (r: RoundsSummary) => ({
  rps: Math.round(r.rps),
  p50Ms: round(r.p50, 3),
  p99Ms: round(r.p99, 3),
  requests: r.requests,
  roundsRps: r.rounds.map((x) => Math.round(x.rps)),
  roundsP99Ms: r.rounds.map((x) => round(x.p99, 3)),
  ...(r.serverCpuUsPerRequest !== undefined ? { serverCpuUsPerRequest: round(r.serverCpuUsPerRequest, 1) } : {}),
});

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? DEFAULT_ROUNDS);
  const seconds = Number(process.env.BENCH_SECONDS ?? DEFAULT_SECONDS);
  for (const f of await benchServeThroughput({ rounds, seconds }))
    process.stdout.write(
      `${f.id}: ${f.measured}${f.unit} (${f.met ? 'met' : 'missed'}) ${JSON.stringify(f.details)}\n`,
    );
}
