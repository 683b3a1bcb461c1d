/**
 * One server for bench/serve-throughput.ts, in its own process: `serve` (the provider mocks as
 * `run` starts them: follow mode, verdicts kept in memory) or `bare` (node:http answering every
 * request with the same bytes after reading its body). Prints its port, serves until killed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadMatrixInputs } from '../src/tools/matrix/run-matrix.js';
import { startServe } from '../src/tools/serve/start-serve.js';

const mode = process.argv[2];
// Exit normally on SIGTERM, so `node --cpu-prof` writes its profile when the bench stops a server.
process.on('SIGTERM', () => process.exit(0));
if (mode === 'bare') {
  const answer = Buffer.from(process.argv[3] ?? '{}');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
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
