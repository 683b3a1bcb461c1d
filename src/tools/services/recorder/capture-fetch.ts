import { formatSseEvent } from '../../../shared/sse/parse-sse.js';
import { StreamCutError } from '../../../shared/errors/stream-cut-error.js';
import { EventStreamDecoder, isAwsEventStream } from './bedrock-event-stream.js';
import { MemorySpool, type StreamSpool } from './event-spool.js';
import type { RedactableExchange } from './redact.js';

/**
 * The recorder's capture layer: a `fetch` that forwards each request unchanged and tees the answer
 * as it streams. Why here and not in @mswjs/interceptors or nock's recorder:
 *  - nothing global is patched, so it composes with msw in the same process (the recorded fixture
 *    can be replayed through the mocks in one test) and cannot leave a patched `http` behind;
 *  - the consumer (the scenario driver) receives every chunk the moment it arrives; the same chunk
 *    goes to a spool (a file while recording) with its arrival time, and is parsed into SSE events
 *    (SseReader) only when the spool is read: events keep their order and timing, the stream pays
 *    next to nothing in latency, and the recorder's memory stays flat however long the stream;
 *  - the request is captured exactly as handed to the network: method, URL, headers, body bytes.
 * What fetch does not expose (headers undici adds, gzip on the wire) is transport detail the mocks
 * must not replay anyway.
 */

export type CaptureState = 'pending' | 'complete' | 'failed';

export interface CapturedExchange {
  /** Request and response as captured; a streamed answer's events are in `events`, not here. */
  exchange: RedactableExchange;
  /** A streamed answer: iterating it gives its SSE events, with `atMs` from the first byte. */
  events?: StreamSpool;
  state: CaptureState;
  /** Why the exchange failed: the socket closed mid-body, a stream ended inside an event, ... */
  error?: string;
  /** The error behind `error` when it was ours, not the provider's (a spool that could not be written). */
  cause?: unknown;
  bytes: number;
}

export interface CaptureOptions {
  /** The network fetch to forward to (default: the global one, so msw can stand in for a provider). */
  fetch?: typeof fetch;
  /** Milliseconds, monotonic. */
  clock?: () => number;
  /** Called as body bytes arrive, with the running total across all exchanges. */
  onBytes?: (totalBytes: number) => void;
  /** Where streamed bodies go (default: memory; the recorder spools to disk). */
  spool?: () => StreamSpool;
}

/** Hop-by-hop and encoding headers describe this one transfer; a mock replaying them would lie. */
const TRANSFER_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/** Harness headers (scenario/call routing for the mocks) never go to a live provider. */
const isHarnessHeader = (name: string) => name.toLowerCase().startsWith('x-reasoning-replay-');

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return '';
  if (contentType === null || /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export class ExchangeCapture {
  readonly captured: CapturedExchange[] = [];
  private totalBytes = 0;
  private readonly forward: typeof fetch;
  private readonly clock: () => number;

  constructor(private readonly options: CaptureOptions = {}) {
    this.forward = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.clock = options.clock ?? (() => performance.now());
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** True when every exchange finished with its whole body read. */
  get allComplete(): boolean {
    return this.captured.length > 0 && this.captured.every((c) => c.state === 'complete');
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const incoming = new Request(input, init);
    const headers = new Headers();
    incoming.headers.forEach((value, name) => {
      if (!isHarnessHeader(name)) headers.set(name, value);
    });
    const bodyText = incoming.body === null ? undefined : await incoming.text();
    const record: CapturedExchange = {
      exchange: {
        request: {
          method: incoming.method,
          url: incoming.url,
          headers: Object.fromEntries(headers),
          body: bodyText === undefined ? null : parseBody(bodyText, headers.get('content-type')),
        },
        response: { status: 0 },
      },
      state: 'pending',
      bytes: 0,
    };
    this.captured.push(record);
    let response: Response;
    try {
      response = await this.forward(incoming.url, {
        method: incoming.method,
        headers,
        body: bodyText,
        signal: init?.signal ?? incoming.signal,
      });
    } catch (err) {
      record.state = 'failed';
      record.error = `request failed: ${describe(err)}`;
      throw err;
    }
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!TRANSFER_HEADERS.has(name)) responseHeaders[name] = value;
    });
    // Headers.forEach joins repeated set-cookie; getSetCookie keeps them apart (they are redacted anyway).
    record.exchange.response = { status: response.status, headers: responseHeaders };
    if (response.body === null) {
      record.exchange.response.body = '';
      record.state = 'complete';
      return response;
    }
    const contentType = response.headers.get('content-type');
    if (isAwsEventStream(contentType)) {
      // Bedrock's binary framing: decoded frame by frame as it arrives; the consumer and the spool
      // get the SSE text every other family speaks (the fixture's headers keep what AWS sent).
      const headers = new Headers(response.headers);
      headers.set('content-type', 'text/event-stream');
      headers.delete('content-length');
      return new Response(this.teeSse(this.decodeEventStream(response.body, record), record), {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }
    const teed = /text\/event-stream/i.test(contentType ?? '')
      ? this.teeSse(response.body, record)
      : this.teeBody(response.body, record, contentType);
    return new Response(teed, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** Binary event-stream frames -> SSE text bytes; a bad checksum or a cut frame fails the exchange. */
  private decodeEventStream(body: ReadableStream<Uint8Array>, record: CapturedExchange): ReadableStream<Uint8Array> {
    const decoder = new EventStreamDecoder();
    const encoder = new TextEncoder();
    const reader = body.getReader();
    const fail = (why: string) => {
      record.state = 'failed';
      record.error ??= why;
    };
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        for (;;) {
          const next = await reader.read();
          if (next.done) {
            if (decoder.pending) fail('the event stream ended inside a frame');
            controller.close();
            return;
          }
          let text: string;
          try {
            text = decoder.feed(next.value).map(formatSseEvent).join('');
          } catch (err) {
            fail(`an event-stream frame could not be decoded: ${describe(err)}`);
            controller.error(err);
            return;
          }
          if (text !== '') {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      },
      cancel: async (reason) => {
        await reader.cancel(reason);
      },
    });
  }

  private count(record: CapturedExchange, chunk: Uint8Array): void {
    record.bytes += chunk.byteLength;
    this.totalBytes += chunk.byteLength;
    this.options.onBytes?.(this.totalBytes);
  }

  private teeSse(body: ReadableStream<Uint8Array>, record: CapturedExchange): ReadableStream<Uint8Array> {
    let firstByteAt: number | undefined;
    let spool: StreamSpool;
    try {
      spool = (this.options.spool ?? (() => new MemorySpool()))();
    } catch (err) {
      record.state = 'failed';
      record.error ??= `the answer could not be spooled: ${describe(err)}`;
      record.cause ??= err;
      void body.cancel(err).catch(() => undefined);
      throw err;
    }
    record.events = spool;
    return this.relay(body, record, {
      chunk: (chunk) => {
        const now = this.clock();
        firstByteAt ??= now;
        spool.append(chunk, Math.round(now - firstByteAt));
      },
      end: () => undefined,
    });
  }

  /**
   * Parses every captured stream once; one that ended inside an event (a clean close at the wrong
   * moment) is marked failed. Done after the fact so the stream itself was never slowed down.
   */
  checkStreams(): void {
    for (const record of this.captured) {
      if (!record.events || record.state !== 'complete') continue;
      try {
        for (const _event of record.events) {
          /* walking is the check */
        }
      } catch (err) {
        record.state = 'failed';
        record.error = err instanceof Error ? err.message : String(err);
        // A cut stream is the provider's doing; anything else (the spool's last write) is ours.
        if (!(err instanceof StreamCutError)) record.cause ??= err;
      }
    }
  }

  private teeBody(
    body: ReadableStream<Uint8Array>,
    record: CapturedExchange,
    contentType: string | null,
  ): ReadableStream<Uint8Array> {
    const decoder = new TextDecoder();
    const parts: string[] = [];
    return this.relay(body, record, {
      chunk: (chunk) => parts.push(decoder.decode(chunk, { stream: true })),
      end: () => {
        parts.push(decoder.decode());
        record.exchange.response.body = parseBody(parts.join(''), contentType);
        return undefined;
      },
    });
  }

  /** Passes each chunk on as it arrives; the record is complete only when the body ended cleanly. */
  private relay(
    body: ReadableStream<Uint8Array>,
    record: CapturedExchange,
    sink: { chunk: (c: Uint8Array) => void; end: () => string | undefined },
  ): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const fail = (why: string) => {
      record.state = 'failed';
      record.error ??= why;
    };
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (err) {
          fail(`the connection broke mid-body after ${record.bytes} bytes: ${describe(err)}`);
          controller.error(err);
          return;
        }
        if (next.done) {
          const problem = sink.end();
          if (problem) fail(problem);
          else if (record.state === 'pending') record.state = 'complete';
          controller.close();
          return;
        }
        this.count(record, next.value);
        try {
          sink.chunk(next.value);
        } catch (err) {
          // Our side failed (a full spool folder): the provider's body must be let go too, or its
          // open connection keeps the process alive after the recording has failed.
          fail(`the answer could not be spooled after ${record.bytes} bytes: ${describe(err)}`);
          record.cause ??= err;
          await reader.cancel(err).catch(() => undefined);
          controller.error(err);
          return;
        }
        controller.enqueue(next.value);
      },
      cancel: async (reason) => {
        fail(`the reader cancelled the body after ${record.bytes} bytes`);
        await reader.cancel(reason);
      },
    });
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
