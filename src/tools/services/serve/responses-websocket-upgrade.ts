import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { HttpAnswers, WebSocketTurn } from '../../../provider/handlers/answer-http-request.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { endpointCandidates } from './resolve-endpoint.js';

/** One turn a WebSocket connection carried, for serve's log. */
export interface CarriedTurn {
  spec: ProviderSpec;
  path: string;
  header: (name: string) => string | undefined;
  scenario: string | null;
  turn: WebSocketTurn;
}

export interface WebSocketUpgradeOptions {
  specs: readonly ProviderSpec[];
  answers: HttpAnswers;
  defaultScenario?: string;
  /** Largest message taken (serve's body bound). */
  maxPayload: number;
  onTurn: (carried: CarriedTurn) => void;
}

/** The Responses path of a Responses-family mock, `/<provider>/responses`: where WebSocket mode is served. */
export function webSocketSpec(specs: readonly ProviderSpec[], pathname: string): ProviderSpec | undefined {
  const [, id = '', ...rest] = pathname.split('/');
  const spec = specs.find((s) => s.id === id);
  return spec?.family === 'openai-responses' && `/${rest.join('/')}` === spec.endpoint.path ? spec : undefined;
}

function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: { type: 'reasoning_replay_serve_error', message } });
  socket.end(
    `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : 'Bad Request'}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Responses WebSocket mode over serve: the upgrade is accepted on a Responses mock's own path, and each text message
 * is handed to the provider side (ResponsesWebSocketConnection), one turn at a time per connection, its answer sent
 * back one JSON message per event. Serve frames; what is answered is the provider side's.
 */
export function responsesWebSocketUpgrade(options: WebSocketUpgradeOptions): {
  onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  close: () => void;
} {
  const server = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const raw = req.url ?? '/';
    const pathname = raw.split('?')[0]!;
    const spec = webSocketSpec(options.specs, pathname);
    if (!spec) {
      const responses = options.specs
        .filter((s) => s.family === 'openai-responses')
        .map((s) => `/${s.id}${s.endpoint.path}`);
      return refuseUpgrade(
        socket,
        404,
        `no WebSocket at ${pathname}; Responses WebSocket mode is served at ${responses.join(', ')}`,
      );
    }
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      return refuseUpgrade(socket, 400, `serve upgrades to WebSocket only, not "${req.headers.upgrade ?? ''}"`);
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const rest = pathname.slice(spec.id.length + 1);
    const candidates = endpointCandidates(spec, options.specs, rest, '');
    server.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const scenario = header('x-reasoning-replay-scenario') ?? options.defaultScenario ?? null;
      const headers = () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          if (value !== undefined && !/^(host|connection|upgrade|sec-websocket-.*)$/.test(name))
            for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
        // Each message is the JSON body of a POST to this path.
        out.set('content-type', 'application/json');
        return out;
      };
      const connection = options.answers.webSocket(spec, candidates, { path: pathname, headers, scenario });
      // One turn at a time: a connection runs one response after another, as the API does.
      let queue = Promise.resolve();
      ws.on('message', (data: RawData, isBinary: boolean) => {
        queue = queue
          .then(async () => {
            let message: unknown;
            try {
              message = isBinary ? undefined : JSON.parse(rawText(data));
            } catch {
              message = undefined;
            }
            const turn = await connection.turn(message);
            for (const m of turn.messages) if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
            options.onTurn({ spec, path: pathname, header, scenario, turn });
          })
          .catch((err: unknown) => {
            ws.close(
              1011,
              `serve failed on this message: ${err instanceof Error ? err.message : String(err)}`.slice(0, 120),
            );
          });
      });
    });
  };
  return { onUpgrade, close: () => server.close() };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
