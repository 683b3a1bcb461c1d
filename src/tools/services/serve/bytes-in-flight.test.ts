import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { startServe, type RunningServe } from './start-serve.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * Issue 27: request bodies were bounded one by one (32 MiB each), not together, so ten concurrent
 * 20 MB bodies grew serve by their sum. The bytes of all bodies in flight are bounded (here 64 KiB
 * instead of the default 32 MiB); a request beyond the bound is answered 503 with Retry-After, and
 * a request held open keeps its share until it is answered. Nothing here depends on timing: the
 * first request is held open by the test while the second arrives.
 */
const LIMIT = 64 * 1024;
const loaded = loadMatrixInputs({});
const log: ServeLogEntry[] = [];
let serve: RunningServe;
beforeAll(async () => {
  serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    maxBytesInFlight: LIMIT,
    log: (e) => log.push(e),
  });
});
afterAll(() => serve.close());

/** A chat request padded to `bytes` (the pad is a user message). */
const chatBody = (bytes: number): Buffer => {
  const head = { model: 'deepseek-v4-flash', messages: [{ role: 'user', content: '' }] };
  const bare = JSON.stringify(head).length;
  head.messages[0]!.content = 'p'.repeat(Math.max(0, bytes - bare));
  return Buffer.from(JSON.stringify(head));
};

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Starts a POST; the caller writes the body. Resolves with the answer. */
function post(headers: Record<string, string | number>): { req: ClientRequest; answer: Promise<Answer> } {
  const url = new URL(`${serve.url}/deepseek/chat/completions`);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', ...headers },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

describe('bytes in flight', () => {
  it('answers 503 with Retry-After to a body that would take the total over the bound', async () => {
    const body = chatBody(40 * 1024);
    // The first request declares its size and sends half: its 40 KiB are in flight.
    const first = post({ 'content-length': body.length });
    first.req.write(body.subarray(0, 1024));
    await expect.poll(() => serve.bytesInFlight()).toBe(body.length);

    // The second would make 80 KiB in flight, over 64 KiB.
    const second = post({ 'content-length': body.length });
    second.req.end(body);
    const refused = await second.answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { message: expect.stringContaining(`${LIMIT}`) } });

    // The first finishes and is answered as usual; its bytes are given back.
    first.req.end(body.subarray(1024));
    expect((await first.answer).status).toBe(200);
    await expect.poll(() => serve.bytesInFlight()).toBe(0);
    const third = post({ 'content-length': body.length });
    third.req.end(body);
    expect((await third.answer).status).toBe(200);
  });

  it('counts chunked bodies as they arrive', async () => {
    const body = chatBody(40 * 1024);
    const first = post({ 'transfer-encoding': 'chunked' });
    first.req.write(body.subarray(0, 40 * 1024 - 10));
    await expect.poll(() => serve.bytesInFlight()).toBe(40 * 1024 - 10);

    const second = post({ 'transfer-encoding': 'chunked' });
    second.req.end(body);
    const refused = await second.answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);

    first.req.end(body.subarray(40 * 1024 - 10));
    expect((await first.answer).status).toBe(200);
    await expect.poll(() => serve.bytesInFlight()).toBe(0);
  });

  it('always admits one body when nothing else is in flight, up to the per-body limit', async () => {
    const { req, answer } = post({});
    req.end(chatBody(LIMIT * 2));
    expect((await answer).status).toBe(200);
  });
});
