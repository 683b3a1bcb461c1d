import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './figure.js';
import { round } from './timing.js';

const childScript = fileURLToPath(
  new URL(`./serve-throughput-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

/** A DeepSeek tool turn as an agent sends it: user, assistant with reasoning and a call, tool result. */
const BODY = JSON.stringify({
  model: 'deepseek-v4-flash',
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
const PATH = '/deepseek/chat/completions';

function startChild(args: string[]): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, childScript, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), child }));
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
}

function post(agent: Agent, port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(BODY),
          'user-agent': 'rr-bench',
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

/**
 * `total` requests over `connections` keep-alive connections, each sending its next request when the last is answered.
 */
async function load(port: number, connections: number, total: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let issued = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (issued < total) {
        issued++;
        const t = process.hrtime.bigint();
        const { status } = await post(agent, port, PATH);
        if (status !== 200) throw new Error(`bench request answered ${status}`);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { rps: total / seconds, p50: at(0.5), p99: at(0.99), requests: total };
}

/**
 * `serve` (the hot path of a `run`) against a bare node:http server answering the same bytes, both
 * in their own process, loaded from this one over keep-alive connections, at 1 and at 50
 * connections. The two servers take turns (`rounds`), each keeps its best throughput and the p99 of
 * that pass. Goal (issue 12): serve at >= 50% of bare throughput, p99 within 3x of bare.
 */
export async function benchServeThroughput(
  options: { rounds?: number; requests?: number } = {},
): Promise<BenchFigure[]> {
  const rounds = options.rounds ?? 3;
  const requests = options.requests ?? 3000;
  const serve = await startChild(['serve']);
  const warm = await post(new Agent({ keepAlive: false }), serve.port, PATH);
  const bare = await startChild(['bare', warm.body]);
  try {
    const figures: BenchFigure[] = [];
    for (const connections of [1, 50]) {
      const best: Record<'serve' | 'bare', LoadResult | undefined> = { serve: undefined, bare: undefined };
      // Warm-up: JIT and serve's caches, so a pass measures the steady state an agent's run meets.
      await load(serve.port, connections, 1500);
      await load(bare.port, connections, 1500);
      for (let r = 0; r < rounds; r++) {
        for (const [name, port] of [
          ['bare', bare.port],
          ['serve', serve.port],
        ] as const) {
          const result = await load(port, connections, requests);
          if (!best[name] || result.rps > best[name]!.rps) best[name] = result;
        }
      }
      const s = best.serve!;
      const b = best.bare!;
      const share = s.rps / b.rps;
      const p99Ratio = s.p99 / b.p99;
      figures.push({
        id: `serve-throughput/${connections}`,
        figure: `serve vs bare node:http, ${connections} connection${connections === 1 ? '' : 's'}: share of bare throughput (p99 ratio in details)`,
        measured: round(share, 2),
        unit: 'x bare',
        goal: '>= 0.5x, p99 <= 3x',
        met: share >= 0.5 && p99Ratio <= 3,
        details: {
          serve: roundAll(s),
          bare: roundAll(b),
          p99Ratio: round(p99Ratio, 2),
          requestsPerPass: requests,
          rounds,
        },
      });
    }
    return figures;
  } finally {
    serve.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
  }
}

const roundAll = (r: LoadResult) => ({
  rps: Math.round(r.rps),
  p50Ms: round(r.p50, 2),
  p99Ms: round(r.p99, 2),
  requests: r.requests,
});

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  for (const f of await benchServeThroughput())
    process.stdout.write(
      `${f.id}: ${f.measured}${f.unit} (${f.met ? 'met' : 'missed'}) ${JSON.stringify(f.details)}\n`,
    );
}
