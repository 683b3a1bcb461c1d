import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { BenchFigure } from './figure.js';
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

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
}

/** autocannon over keep-alive connections for `seconds`, each connection sending its next request when answered. */
async function load(
  port: number,
  path: string,
  stream: boolean,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  // autocannon's own histogram counts whole milliseconds; each response's time is kept here instead.
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}${path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(stream),
        connections,
        duration: seconds,
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`bench: ${bad} failed requests to port ${port}${path} (${connections} connections)`);
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    rps: result.requests.total / seconds,
    p50: at(0.5),
    p99: at(0.99),
    requests: result.requests.total,
    errors: bad,
  };
}

/**
 * `serve` (the hot path of a `run`) against a bare node:http server writing the same bytes and
 * against @copilotkit/aimock, another LLM mock server from npm, each in its own process, loaded by
 * autocannon from this one: the same DeepSeek tool turn, JSON and streamed, at 1 and at 50
 * connections. The servers take turns (`rounds` short passes: on a shared machine the best of
 * many is the least disturbed); each keeps its best throughput and the p99 of that pass. Goals (issue 22): serve >= 0.6x bare with p99 <= 2x bare, and ahead of aimock, in all
 * four cases.
 */
export async function benchServeThroughput(
  options: { rounds?: number; seconds?: number } = {},
): Promise<BenchFigure[]> {
  const rounds = options.rounds ?? 5;
  const seconds = options.seconds ?? 2;
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

    const figures: BenchFigure[] = [];
    for (const stream of [false, true]) {
      for (const connections of [1, 50]) {
        const best: Partial<Record<ServerName, LoadResult>> = {};
        // Warm-up: JIT and caches, so a pass measures the steady state an agent's run meets.
        for (const name of ['bare', 'serve', 'aimock'] as const)
          await load(ports[name], PATHS[name], stream, connections, 1);
        for (let r = 0; r < rounds; r++) {
          for (const name of ['bare', 'serve', 'aimock'] as const) {
            const result = await load(ports[name], PATHS[name], stream, connections, seconds);
            if (!best[name] || result.rps > best[name]!.rps) best[name] = result;
          }
        }
        const s = best.serve!;
        const b = best.bare!;
        const a = best.aimock!;
        const share = s.rps / b.rps;
        const p99Ratio = s.p99 / b.p99;
        const kind = stream ? 'stream' : 'json';
        figures.push({
          id: `serve-throughput/${kind}/${connections}`,
          figure: `serve vs bare node:http, ${stream ? 'SSE stream' : 'JSON'}, ${connections} connection${connections === 1 ? '' : 's'}: share of bare throughput (p99 ratio, aimock in details)`,
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
            loadGenerator: 'autocannon',
            secondsPerPass: seconds,
            rounds,
          },
        });
      }
    }
    return figures;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

const roundAll = (r: LoadResult) => ({
  rps: Math.round(r.rps),
  p50Ms: round(r.p50, 3),
  p99Ms: round(r.p99, 3),
  requests: r.requests,
});

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const seconds = Number(process.env.BENCH_SECONDS ?? 2);
  for (const f of await benchServeThroughput({ rounds, seconds }))
    process.stdout.write(
      `${f.id}: ${f.measured}${f.unit} (${f.met ? 'met' : 'missed'}) ${JSON.stringify(f.details)}\n`,
    );
}
