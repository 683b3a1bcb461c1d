/**
 * One server for bench/serve-throughput.ts, in its own process, printing its port and serving until
 * killed:
 *  - `serve`: the provider mocks as `run` starts them (follow mode, verdicts kept in memory);
 *  - `bare FILE`: node:http answering each request, after reading its body, with the bytes serve
 *    answered, its headers and framing included (FILE holds serve's JSON and SSE answers with their
 *    headers; `"stream": true` in the body picks SSE, sent chunked as serve sends it);
 *  - `aimock`: @copilotkit/aimock, another LLM mock server from npm, with one fixture answering
 *    every chat completion with the same tool call and reasoning, streamed when asked.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadMatrixInputs } from '../src/tools/services/matrix/run-matrix.js';
import { startServe } from '../src/tools/services/serve/start-serve.js';

const mode = process.argv[2];
// Exit normally on SIGTERM, so `node --cpu-prof` writes its profile when the bench stops a server.
process.on('SIGTERM', () => process.exit(0));
if (mode === 'bare') {
  type Answer = { headers: Record<string, string>; body: string };
  const answers = JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as { json: Answer; sse: Answer };
  const json = { headers: answers.json.headers, body: Buffer.from(answers.json.body) };
  const sse = { headers: answers.sse.headers, body: Buffer.from(answers.sse.body) };
  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = Buffer.concat(chunks).includes('"stream":true') ? sse : json;
      res.writeHead(200, answer.headers);
      res.end(answer.body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
} else if (mode === 'aimock') {
  const { LLMock } = await import('@copilotkit/aimock');
  // A bounded journal: the bench sends tens of thousands of requests, and serve keeps none either.
  const mock = new LLMock({ port: 0, host: '127.0.0.1', logLevel: 'silent', journalMaxEntries: 100 });
  mock.onMessage(/.*/, {
    reasoning: 'The user wants an order status; look it up.',
    toolCalls: [{ name: 'lookup_order', arguments: '{"order_id":"ORD-1234"}', id: 'call_bench_0' }],
  });
  await mock.start();
  process.stdout.write(`${new URL(mock.url).port}\n`);
} else {
  const loaded = loadMatrixInputs({});
  let kept = 0;
  const serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    runId: 'bench',
    log: () => void kept++,
  });
  process.stdout.write(`${serve.port}\n`);
}
