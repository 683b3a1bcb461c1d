import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatSseEvent } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';

/**
 * A small OpenAI-chat-compatible provider on a real socket (127.0.0.1 only), for testing the
 * recorder and the probe as a user would run them. It can behave as the three tiers do:
 *  - strict: one reasoning key on a message is a 422, in Mistral's words (Pydantic extra_forbidden,
 *    quoted in https://github.com/charmbracelet/crush/issues/1590);
 *  - must-echo: an assistant tool-call turn without non-blank reasoning_content is a 400, in
 *    DeepSeek V4's words (quoted in https://github.com/mnfst/modelparams.dev/issues/29);
 *  - standard: accepts whatever it is sent.
 * It plants a secret wherever a real provider might reflect one (response headers, set-cookie,
 * body, stream events, tool arguments, which the next request body echoes) and answers with an
 * encrypted reasoning item that must survive verbatim.
 */
export type FakeTier = 'standard' | 'strict' | 'must-echo';

export interface FakeProviderOptions {
  tier?: FakeTier;
  /** Planted in response headers, a cookie, the JSON body and the first stream event. */
  secret?: string;
  /** Pause between stream writes; each event is written in two halves around a pause. */
  chunkDelayMs?: number;
  /** Extra reasoning deltas per streamed answer (to make big streams). */
  extraDeltas?: number;
  /** Close the socket in the middle of event N of the first streamed answer. */
  cutAtEvent?: number;
  /** Stop writing (but keep the socket open) before event N of the first streamed answer. */
  stallAtEvent?: number;
  /** Planted in a response header the redactor does not know by name: the sweep must catch it. */
  unlistedLeak?: string;
  /** The encrypted reasoning item's data (default ENCRYPTED_REASONING). */
  encryptedReasoning?: string;
}

export interface SentAnswer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  events?: SseEvent[];
}

export interface FakeProvider {
  /** Base URL, e.g. http://127.0.0.1:40123/v1 */
  baseUrl: string;
  /** Requests as received: URL (path + query), headers, parsed body. */
  requests: Array<{ url: string; headers: Record<string, string | string[] | undefined>; body: unknown }>;
  /** What the server answered, in order. */
  sent: SentAnswer[];
  /** Resolves when the server stalls (stallAtEvent). */
  stalled: Promise<void>;
  close(): Promise<void>;
}

/** An encrypted reasoning item as aggregators relay it: opaque base64 that must come back byte for byte. */
export const ENCRYPTED_REASONING =
  'gAAAAABoZ1hZ3kq9+X0w/Vt6bYc2Rr8mJm3L4n5o6p7q8r9s0t1u2v3w4x5y6z7A8B9C0D1E2F3G4H5I6J7K8L9M0N1O2P3Q4R5S6T7==';

type Msg = { role?: string; tool_calls?: unknown[]; reasoning_content?: unknown; [k: string]: unknown };

const CARRIERS = ['reasoning_content', 'reasoning', 'reasoning_details'] as const;

function rejection(tier: FakeTier, messages: Msg[]): { status: number; body: unknown } | undefined {
  if (tier === 'strict') {
    for (const [i, m] of messages.entries()) {
      const field = CARRIERS.find((f) => f in m);
      if (field) {
        return {
          status: 422,
          body: {
            object: 'error',
            message: {
              detail: [
                {
                  type: 'extra_forbidden',
                  loc: ['body', 'messages', i, m.role ?? 'assistant', field],
                  msg: 'Extra inputs are not permitted',
                  input: m[field],
                },
              ],
            },
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        };
      }
    }
  }
  if (tier === 'must-echo') {
    const bad = messages.find(
      (m) =>
        m.role === 'assistant' &&
        (m.tool_calls?.length ?? 0) > 0 &&
        !(typeof m.reasoning_content === 'string' && m.reasoning_content.length > 0),
    );
    if (bad) {
      const message = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
      return {
        status: 400,
        body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
      };
    }
  }
  return undefined;
}

function answerMessage(messages: Msg[], callIndex: number, secret: string | undefined, encrypted: string) {
  const last = messages.at(-1);
  const reasoning = `Call ${callIndex}: the user wants the weather; I should ${last?.role === 'tool' ? 'summarize the tool result' : 'call get_weather'}.`;
  const base = {
    role: 'assistant',
    reasoning_content: reasoning,
    reasoning_details: [{ type: 'reasoning.encrypted', data: encrypted, format: 'openai-responses-v1', index: 0 }],
  };
  if (last?.role === 'tool') return { ...base, content: `It is sunny.${secret ? ` (debug token ${secret})` : ''}` };
  // A planted secret in the tool arguments travels back in the next request body, as a leaked key would.
  const args = JSON.stringify({ city: 'Paris', ...(secret ? { session: secret } : {}) });
  return {
    ...base,
    content: null,
    tool_calls: [{ id: `call_${callIndex}`, type: 'function', function: { name: 'get_weather', arguments: args } }],
  };
}

function streamEvents(
  message: ReturnType<typeof answerMessage>,
  id: string,
  extraDeltas: number,
  secret: string | undefined,
): SseEvent[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      model: 'fake-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  const events: SseEvent[] = [
    { data: chunk({ role: 'assistant', content: '' }, null, secret ? { x_debug_key: secret } : {}) },
  ];
  const words = message.reasoning_content.split(' ');
  for (const [i, w] of words.entries()) events.push({ data: chunk({ reasoning_content: (i ? ' ' : '') + w }) });
  for (let i = 0; i < extraDeltas; i++)
    events.push({ data: chunk({ reasoning_content: ` filler-${i}-${'x'.repeat(40)}` }) });
  events.push({ data: chunk({ reasoning_details: message.reasoning_details }) });
  if ('tool_calls' in message && message.tool_calls) {
    events.push({ data: chunk({ tool_calls: message.tool_calls.map((t, index) => ({ index, ...t })) }) });
    events.push({ data: chunk({}, 'tool_calls') });
  } else {
    events.push({ data: chunk({ content: message.content }) });
    events.push({ data: chunk({}, 'stop') });
  }
  events.push({ data: '[DONE]' });
  return events;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const tier = options.tier ?? 'standard';
  const requests: FakeProvider['requests'] = [];
  const sent: SentAnswer[] = [];
  let streamsServed = 0;
  let markStalled!: () => void;
  const stalled = new Promise<void>((resolve) => (markStalled = resolve));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    let body: { messages?: Msg[]; stream?: boolean } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // An unparseable body is answered below as a 400 like any OpenAI-compatible server would.
    }
    requests.push({ url: req.url ?? '', headers: req.headers, body });
    const headers: Record<string, string> = { 'x-request-id': `req_${requests.length}` };
    if (options.secret) headers['x-echo-api-key'] = options.secret;
    if (options.unlistedLeak) headers['x-debug-upstream'] = options.unlistedLeak;
    const cookie = options.secret ? [`sid=${options.secret}; Path=/; HttpOnly`] : [];
    if (
      !req.url?.split('?')[0]?.endsWith('/chat/completions') ||
      req.method !== 'POST' ||
      !Array.isArray(body.messages)
    ) {
      const error = { error: { message: 'not found (fake provider)', type: 'invalid_request_error' } };
      sent.push({ status: 404, headers, body: error });
      res.writeHead(404, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    const refused = rejection(tier, body.messages);
    if (refused) {
      sent.push({ status: refused.status, headers, body: refused.body });
      res
        .writeHead(refused.status, { ...headers, 'content-type': 'application/json' })
        .end(JSON.stringify(refused.body));
      return;
    }
    const call = body.messages.filter((m) => m.role === 'assistant').length;
    const message = answerMessage(
      body.messages,
      call,
      options.secret,
      options.encryptedReasoning ?? ENCRYPTED_REASONING,
    );
    const id = `chatcmpl-${requests.length}`;
    if (body.stream !== true) {
      const answer = {
        id,
        object: 'chat.completion',
        model: 'fake-model',
        choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
        ...(options.secret ? { system_fingerprint: `fp_${options.secret}` } : {}),
      };
      sent.push({ status: 200, headers, body: answer });
      res
        .writeHead(200, { ...headers, 'set-cookie': cookie, 'content-type': 'application/json' })
        .end(JSON.stringify(answer));
      return;
    }
    const events = streamEvents(message, id, options.extraDeltas ?? 0, options.secret);
    const first = streamsServed++ === 0;
    sent.push({ status: 200, headers, events });
    res.writeHead(200, {
      ...headers,
      'set-cookie': cookie,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
    });
    const delay = options.chunkDelayMs ?? 0;
    for (const [i, event] of events.entries()) {
      if (first && options.stallAtEvent === i) {
        markStalled();
        return; // the socket stays open until the client goes away
      }
      const wire = formatSseEvent(event);
      const half = Math.floor(wire.length / 2);
      // Split every event across two writes so the recorder meets real chunk boundaries.
      res.write(wire.slice(0, half));
      if (first && options.cutAtEvent === i) {
        res.socket?.destroy();
        return;
      }
      if (delay > 0) await sleep(delay);
      res.write(wire.slice(half));
      if (delay > 0) await sleep(delay);
    }
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => res.destroy(err as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    sent,
    stalled,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
