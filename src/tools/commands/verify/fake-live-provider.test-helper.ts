import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A live provider on a real socket (127.0.0.1 only, a free port, started by the test) whose rules
 * differ from the mocks' on purpose, so `verify --live` has something to find:
 *  - `faithful`: DeepSeek's rule (a tool-call turn of the current turn without reasoning_content is
 *    refused) in DeepSeek's own words: the mock agrees;
 *  - `lenient`: accepts everything (the mock is too strict where it refuses);
 *  - `strict`: every assistant message needs non-blank reasoning_content (the mock is too lenient
 *    where it accepts a plain turn without one, or the engine's " " pad);
 *  - `reworded`: DeepSeek's rule, other words (the wording changed);
 *  - `rate-limited` (429), `unauthorized` (401), `slow` (accepts the connection, never answers),
 *    `drop` (closes the connection on the request).
 * Or, as `claude`, an Anthropic Messages endpoint that signs its thinking blocks with its own key
 * and refuses a thinking block whose signature it did not issue for that text, in Anthropic's words.
 * Every wording here is the fake's own except where it copies the mock's spec on purpose (the
 * `faithful` and `claude` modes): it is a test double, not a claim about any provider.
 *
 * With `plant`, the fake echoes that secret wherever a careless provider might: a response
 * header, the answer text (so the engine would send it back next turn) and its error messages:
 * raw, base64, base64url, base64 of `Bearer <key>`, percent-encoded, \u-escaped, and as JSON text
 * inside a JSON string.
 */
export type FakeMode =
  'faithful' | 'lenient' | 'strict' | 'reworded' | 'rate-limited' | 'unauthorized' | 'slow' | 'drop' | 'claude';

export interface FakeLiveProvider {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** Every request that reached the socket, in order (the caps are counted here). */
  requests: Array<{ path: string; headers: IncomingMessage['headers']; body: unknown }>;
  close(): Promise<void>;
}

const FAKE_KEY = Buffer.from('fake-live-provider signing key');
export const fakeSign = (text: string) => createHmac('sha256', FAKE_KEY).update(text).digest('base64');

type Msg = { role?: string; content?: unknown; tool_calls?: unknown[]; reasoning_content?: unknown };

function spellings(secret: string): string {
  const pct = [...secret].map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).join('');
  const escaped = `\\u00${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`;
  return [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), pct, escaped].join(
    ' ',
  );
}

function chatRefusal(
  mode: FakeMode,
  messages: Msg[],
  plant: string | undefined,
): { status: number; body: unknown } | undefined {
  const tail = plant ? ` (request key ${spellings(plant)})` : '';
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const missing = (m: Msg) => !(typeof m.reasoning_content === 'string' && m.reasoning_content.trim() !== '');
  const toolTurnMissing = messages.some(
    (m, i) => i > lastUser && m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0 && missing(m),
  );
  const error = (message: string) => ({
    status: 400,
    body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
  });
  if (mode === 'faithful' && toolTurnMissing)
    return error('The `reasoning_content` in the thinking mode must be passed back to the API.');
  if (mode === 'reworded' && toolTurnMissing)
    return error(`Fake provider: tool-call turns must echo their reasoning_content${tail}.`);
  if (mode === 'strict' && messages.some((m) => m.role === 'assistant' && missing(m)))
    return error(`Fake provider: every assistant message needs non-blank reasoning_content${tail}.`);
  return undefined;
}

/** The `strict` fake answers a tool call without reasoning (the engine then pads " ", which it refuses). */
function chatAnswer(messages: Msg[], plant: string | undefined, withReasoning: boolean) {
  const last = messages.at(-1);
  const echo = plant ? ` [debug ${spellings(plant)}]` : '';
  const message =
    last?.role === 'tool'
      ? { role: 'assistant', content: `It is sunny.${echo}`, reasoning_content: 'Summarise the tool result.' }
      : {
          role: 'assistant',
          content: null,
          ...(withReasoning ? { reasoning_content: `I should call the tool.${echo}` } : {}),
          ...(withReasoning ? {} : { content: `Calling the tool.${echo}` }),
          tool_calls: [
            { id: 'call_fake_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          ],
        };
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    model: 'fake',
    choices: [{ index: 0, message, finish_reason: message.content === null ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
  };
}

type Block = { type?: string; thinking?: unknown; signature?: unknown };

function claudeRefusal(body: { messages?: Array<{ role?: string; content?: unknown }> }) {
  for (const [i, m] of (body.messages ?? []).entries()) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    for (const [j, b] of (m.content as Block[]).entries()) {
      if (b.type !== 'thinking') continue;
      if (typeof b.thinking !== 'string' || b.signature !== fakeSign(b.thinking))
        return {
          status: 400,
          body: {
            type: 'error',
            error: {
              type: 'invalid_request_error',
              message: `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`,
            },
          },
        };
    }
  }
  return undefined;
}

let thought = 0;
function claudeAnswer(body: { messages?: Array<{ role?: string; content?: unknown }>; tools?: unknown[] }) {
  const text = `Fake thought ${++thought}: look before answering.`;
  // A model that looks things up twice before it answers, as the bundled tool-loop scenarios script it: a real Claude
  // refuses a tool_result that follows an answer without tool_use, so a fake that stopped after one round made the
  // scenario's second, scripted result an orphan the live API would refuse too.
  const rounds = (body.messages ?? []).filter(
    (m) => Array.isArray(m.content) && (m.content as Block[]).some((b) => b.type === 'tool_result'),
  ).length;
  const afterTool = rounds >= 2;
  const content: unknown[] = [{ type: 'thinking', thinking: text, signature: fakeSign(text) }];
  if (!afterTool && (body.tools?.length ?? 0) > 0)
    content.push({ type: 'tool_use', id: `toolu_fake_${thought}`, name: 'get_weather', input: { city: 'Paris' } });
  else content.push({ type: 'text', text: 'Done.' });
  return {
    id: `msg_fake_${thought}`,
    type: 'message',
    role: 'assistant',
    model: 'fake',
    content,
    stop_reason: afterTool || !(body.tools?.length ?? 0) ? 'end_turn' : 'tool_use',
    usage: { input_tokens: 30, output_tokens: 12 },
  };
}

export async function startFakeLiveProvider(
  mode: FakeMode,
  options: { plant?: string } = {},
): Promise<FakeLiveProvider> {
  const requests: FakeLiveProvider['requests'] = [];
  const sockets = new Set<Socket>();
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.plant) headers['x-debug-echo'] = Buffer.from(options.plant).toString('base64');
    res.writeHead(status, headers).end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (mode === 'drop') return req.socket.destroy();
      if (mode === 'slow') return; // never answers; the client's deadline ends the call
      if (mode === 'rate-limited')
        return send(res, 429, {
          error: { message: 'Rate limit reached for requests (fake)', type: 'rate_limit_error' },
        });
      if (mode === 'unauthorized')
        return send(res, 401, {
          error: {
            message: `Invalid API key (fake)${options.plant ? `: ${options.plant}` : ''}`,
            type: 'authentication_error',
          },
        });
      const b = (body ?? {}) as { messages?: Msg[]; tools?: unknown[] };
      if (mode === 'claude') {
        const refused = claudeRefusal(b as never);
        return refused ? send(res, refused.status, refused.body) : send(res, 200, claudeAnswer(b as never));
      }
      const refused = chatRefusal(mode, b.messages ?? [], options.plant);
      return refused
        ? send(res, refused.status, refused.body)
        : send(res, 200, chatAnswer(b.messages ?? [], options.plant, mode !== 'strict'));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
