/**
 * The load generator of bench/serve-throughput.ts, in a process of its own, as a user's load
 * generator is: it never shares an event loop with the bench that reads its figures. One pass of
 * autocannon over keep-alive connections, each connection sending its next request when the last
 * is answered; prints one JSON line (`LoadPass`) on stdout and exits.
 *
 *   node load-child.js '{"url":"http://127.0.0.1:PORT/path","body":"...","connections":50,"seconds":4}'
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface LoadRequest {
  url: string;
  body: string;
  connections: number;
  seconds: number;
}

/** One pass as measured: requests per second and latency quantiles in milliseconds. */
export interface LoadPass {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Non-2xx answers, socket errors and timeouts: a pass with any is not a measurement. */
  errors: number;
  /** The server's own CPU time per request in this pass, in µs, where the bench could read it. */
  serverCpuUsPerRequest?: number;
}

/** Quantile `q` of latencies sorted ascending (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export async function loadPass(request: LoadRequest): Promise<LoadPass> {
  // autocannon's own histogram counts whole milliseconds, too coarse at one connection (a request
  // takes a fraction of one): each response's own time is kept here instead.
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: request.body,
        connections: request.connections,
        duration: request.seconds,
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  latencies.sort((x, y) => x - y);
  return {
    rps: result.requests.total / request.seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    requests: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const pass = await loadPass(JSON.parse(process.argv[2] ?? '{}') as LoadRequest);
  process.stdout.write(JSON.stringify(pass) + '\n');
}
