import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export type AnyRequest = IncomingMessage | Http2ServerRequest;
export type AnyResponse = ServerResponse | Http2ServerResponse;

/** What an HTTP/2 client sends first when it speaks HTTP/2 with prior knowledge (RFC 9113 §3.4). */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export interface H1H2cServer {
  port: number;
  close(): Promise<void>;
}

/**
 * HTTP/1.1 and cleartext HTTP/2 on one port. Node's `allowHTTP1` only works over TLS, and the AWS
 * SDK's bedrock-runtime client speaks HTTP/2 by default (prior knowledge, no upgrade), so each new
 * connection's first bytes are read: the HTTP/2 preface hands the socket to an HTTP/2 server,
 * anything else to an HTTP/1.1 one; both call the same handler. The bytes read are put back first.
 */
export interface ListenOptions {
  port: number;
  host: string;
  keepAliveTimeout: number;
  /**
   * How long a client has to send a request's headers, in ms (serve --header-timeout): an HTTP/1.1
   * request whose headers are not complete by then is answered 408 and closed (Node's
   * headersTimeout), and a connection whose first bytes (the request line, or the whole HTTP/2
   * preface) have not arrived by then is closed.
   */
  headerTimeoutMs?: number;
  /** An HTTP/1.1 request asking to switch protocols (a WebSocket upgrade): the socket is the handler's. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

/** Node's own default for headersTimeout. */
export const DEFAULT_HEADER_TIMEOUT_MS = 60_000;
/** Node's default requestTimeout (the whole request, body included); never below the header deadline. */
const NODE_REQUEST_TIMEOUT_MS = 300_000;

export function listenHttp1AndH2c(
  handler: (req: AnyRequest, res: AnyResponse) => void,
  options: ListenOptions,
): Promise<H1H2cServer> {
  const headerTimeout = options.headerTimeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
  const http1 = createHttp1Server(
    {
      keepAliveTimeout: options.keepAliveTimeout,
      headersTimeout: headerTimeout,
      requestTimeout: Math.max(NODE_REQUEST_TIMEOUT_MS, headerTimeout),
      // Node checks the deadlines at this interval (30 s by default): at most a second late here.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headerTimeout / 2))),
    },
    handler,
  );
  // Node tracks connections and checks their header and request deadlines from the moment the
  // server emits 'listening' (setupConnectionsTracking). This server never listens itself (the net
  // server below hands it its sockets), so without this the deadlines were never checked at all.
  http1.emit('listening');
  if (options.onUpgrade) http1.on('upgrade', options.onUpgrade);
  const http2 = createHttp2Server({}, handler);
  const sockets = new Set<Socket>();

  const route = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let seen: Buffer = Buffer.alloc(0);
    const ignore = () => undefined; // a client gone before its first bytes: nothing to answer
    // Until its first bytes say which protocol it speaks, no HTTP server watches the socket.
    const firstBytesDeadline = setTimeout(() => socket.destroy(), headerTimeout);
    socket.once('close', () => clearTimeout(firstBytesDeadline));
    const onData = (chunk: Buffer) => {
      seen = seen.length ? Buffer.concat([seen, chunk]) : chunk;
      const n = Math.min(seen.length, PREFACE.length);
      const h2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (h2 && seen.length < PREFACE.length) return; // a prefix of the preface so far: wait for the rest
      clearTimeout(firstBytesDeadline);
      socket.off('data', onData);
      socket.off('error', ignore);
      socket.pause();
      socket.unshift(seen);
      if (h2) {
        // The HTTP/2 session reads what is buffered itself; resuming here would drop it.
        http2.emit('connection', socket);
      } else {
        http1.emit('connection', socket);
        socket.resume();
      }
    };
    socket.on('error', ignore);
    socket.on('data', onData);
  };
  // node:http sets TCP_NODELAY on its own sockets; this server accepts them, so it must: without it
  // a stream's small writes wait on Nagle and the client's delayed ACK (about 40 ms a response).
  const net = createNetServer({ noDelay: true }, route);

  return new Promise((resolve, reject) => {
    net.once('error', reject);
    net.listen(options.port, options.host, () => {
      resolve({
        port: (net.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            net.close(() => done());
            http1.close(); // stops its deadline checks; it never listened, so nothing else to close
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}
