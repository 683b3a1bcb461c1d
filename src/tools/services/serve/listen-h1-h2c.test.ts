import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenHttp1AndH2c, type H1H2cServer } from './listen-h1-h2c.js';

/**
 * Issue 27: a slow sender kept its socket open. HTTP/1.1 headers that never ended were never
 * timed out (the HTTP/1 server never `listen`s itself, so Node's header check never ran), and a connection that sent nothing, or a part of the HTTP/2 preface,
 * waited for its first bytes for ever. With a header deadline each of them is closed by the
 * server; no assertion here is about how long that took.
 */
let server: H1H2cServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async () =>
  (server = await listenHttp1AndH2c((_req, res) => res.end('ok'), {
    port: 0,
    host: '127.0.0.1',
    keepAliveTimeout: 30_000,
    headerTimeoutMs: 150,
  }));

/** Connects, writes `first`, then nothing more; resolves with what the server sent once it closed the socket. */
function sendThenStall(port: number, first: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = '';
    const socket: Socket = connect(port, '127.0.0.1', () => {
      if (first) socket.write(first);
    });
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(got));
  });
}

describe('the header deadline', () => {
  it('closes an HTTP/1.1 request whose headers never end, answering 408', async () => {
    const { port } = await start();
    const got = await sendThenStall(port, 'POST /deepseek/chat/completions HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
  }, 10_000);

  it('closes a connection that sends nothing at all', async () => {
    const { port } = await start();
    expect(await sendThenStall(port, '')).toBe('');
  }, 10_000);

  it('closes a connection that sends only a part of the HTTP/2 preface', async () => {
    const { port } = await start();
    expect(await sendThenStall(port, 'PRI * HTTP/2.0\r\n')).toBe('');
  }, 10_000);

  it('leaves a request whose headers arrive in time alone', async () => {
    const { port } = await start();
    const response = await fetch(`http://127.0.0.1:${port}/x`);
    expect(await response.text()).toBe('ok');
  });
});
