import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeCapture } from './capture-fetch.js';
import type { StreamSpool } from './event-spool.js';
import { startFakeProvider, type FakeProvider } from './fake-provider.test-helper.js';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const turn = (stream: boolean) => ({
  model: 'fake-model',
  stream,
  messages: [{ role: 'user', content: 'weather in Paris?' }],
});

async function post(capture: ExchangeCapture, url: string, body: unknown, headers: Record<string, string> = {}) {
  return capture.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('ExchangeCapture', () => {
  it('captures a stream as the ordered events the server sent, while the consumer reads the same bytes', async () => {
    server = await startFakeProvider({ chunkDelayMs: 5 });
    let progress = 0;
    const capture = new ExchangeCapture({ onBytes: (n) => (progress = n) });
    const response = await post(capture, `${server.baseUrl}/chat/completions`, turn(true), {
      'x-reasoning-replay-call': '0',
    });
    const consumerText = await response.text();
    const [record] = capture.captured;
    expect(record?.state).toBe('complete');
    const events = [...record!.events!];
    expect(record!.exchange.response.stream).toBeUndefined();
    expect(events.map(({ event, id, data }) => ({ event, id, data }))).toEqual(
      server.sent[0]!.events!.map(({ data }) => ({ event: undefined, id: undefined, data })),
    );
    // Timing is relative to the first byte and never goes backwards.
    expect(events[0]!.atMs).toBeGreaterThanOrEqual(0);
    for (let i = 1; i < events.length; i++) expect(events[i]!.atMs!).toBeGreaterThanOrEqual(events[i - 1]!.atMs!);
    expect(progress).toBe(Buffer.byteLength(consumerText));
    expect(record!.bytes).toBe(progress);
    // Harness headers never reach a live provider, and the capture shows what was really sent.
    expect(server.requests[0]!.headers['x-reasoning-replay-call']).toBeUndefined();
    expect(record!.exchange.request!.headers!['x-reasoning-replay-call']).toBeUndefined();
    expect(record!.exchange.request!.body).toEqual(turn(true));
    expect(record!.exchange.response.headers!['content-type']).toBe('text/event-stream');
    expect(record!.exchange.response.headers!['transfer-encoding']).toBeUndefined();
  });

  it('captures a JSON answer as its parsed body', async () => {
    server = await startFakeProvider();
    const capture = new ExchangeCapture();
    const response = await post(capture, `${server.baseUrl}/chat/completions`, turn(false));
    expect(await response.json()).toEqual(server.sent[0]!.body);
    expect(capture.captured[0]!.exchange.response).toMatchObject({ status: 200, body: server.sent[0]!.body });
    expect(capture.allComplete).toBe(true);
  });

  it('marks an exchange failed when the server closes the socket mid-stream', async () => {
    server = await startFakeProvider({ cutAtEvent: 3, chunkDelayMs: 2 });
    const capture = new ExchangeCapture();
    const response = await post(capture, `${server.baseUrl}/chat/completions`, turn(true));
    await expect(response.text()).rejects.toThrow();
    expect(capture.captured[0]!.state).toBe('failed');
    expect(capture.captured[0]!.error).toMatch(/connection broke mid-body/);
    expect(capture.allComplete).toBe(false);
  });

  it('marks a stream that closed cleanly inside an event failed once the streams are checked', async () => {
    const { createServer } = await import('node:http');
    const cut = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"a":1}\n\ndata: {"b":');
    });
    await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
    try {
      const capture = new ExchangeCapture();
      const response = await capture.fetch(`http://127.0.0.1:${(cut.address() as { port: number }).port}/`);
      await response.text();
      expect(capture.captured[0]!.state).toBe('complete');
      capture.checkStreams();
      expect(capture.captured[0]!.state).toBe('failed');
      expect(capture.captured[0]!.error).toBe('the stream ended inside an event (cut off after 1 whole events)');
    } finally {
      cut.close();
    }
  });

  // Issue 27: a full spool folder errored the consumer's stream but left the provider's body
  // unread and open, so `record` printed its line and then never exited.
  it('cancels the provider body and keeps the cause when the spool cannot be written', async () => {
    let cancelled: unknown;
    const upstream = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('data: {"a":1}\n\n')),
      cancel: (reason) => {
        cancelled = reason;
      },
    });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
    });
    const failingSpool: StreamSpool = {
      bytes: 0,
      chunks: 0,
      append: () => {
        throw full;
      },
      [Symbol.iterator]: () => [][Symbol.iterator](),
    };
    const capture = new ExchangeCapture({
      fetch: () => Promise.resolve(new Response(upstream, { headers: { 'content-type': 'text/event-stream' } })),
      spool: () => failingSpool,
    });
    const response = await capture.fetch('http://127.0.0.1:9/chat/completions');
    await expect(response.text()).rejects.toThrow(/ENOSPC/);
    expect(cancelled).toBe(full);
    expect(capture.captured[0]!.state).toBe('failed');
    expect(capture.captured[0]!.cause).toBe(full);
    expect(capture.captured[0]!.error).toMatch(/could not be spooled.*ENOSPC/);
  });
});
