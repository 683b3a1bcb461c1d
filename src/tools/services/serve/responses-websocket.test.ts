import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { answerProblems, answerSchemasFor, suiteSchemasFor } from '../../../provider/answers/answer-schemas.js';
import { parseSse } from '../../../shared/sse/parse-sse.js';
import { startServe, type RunningServe } from './start-serve.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * Responses WebSocket mode over serve, read by the ws client: the upgrade on the Responses mock's own path,
 * `response.create` messages answered with the very events the SSE stream carries (one JSON message each), each
 * valid against OpenAI's own event schema and the Open Responses one; a store:false chain continued on its
 * connection, refused on another, and evicted by a failed continuation, with the spec's own wording.
 */
const loaded = loadMatrixInputs({});
const log: ServeLogEntry[] = [];
let serve: RunningServe;
beforeAll(async () => {
  serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    log: (e) => log.push(e),
  });
});
afterAll(() => serve.close());

const spec = loaded.specs.find((s) => s.id === 'openai-responses')!;
const wsUrl = (path = '/openai-responses/responses') => `${serve.url.replace(/^http/, 'ws')}${path}`;
type Message = Record<string, unknown> & { type: string };

/** A connection that collects each turn's messages up to its terminal event (a completed response or an error). */
async function open(
  path?: string,
): Promise<{ turn: (body: Record<string, unknown>) => Promise<Message[]>; close: () => void }> {
  const socket = new WebSocket(wsUrl(path), { headers: { authorization: 'Bearer sk-test' } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let pending: { messages: Message[]; done: (m: Message[]) => void } | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    pending!.messages.push(message);
    if (message.type === 'error' || /^response\.(completed|incomplete|failed)$/.test(message.type))
      pending!.done(pending!.messages);
  });
  return {
    turn: (body) =>
      new Promise((done) => {
        pending = { messages: [], done };
        socket.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', ...body }));
      }),
    close: () => socket.close(),
  };
}

const completedId = (messages: Message[]) => (messages.at(-1)!.response as { id: string }).id;

describe('Responses WebSocket mode', () => {
  it('answers response.create with the events the SSE stream carries, one JSON message each', async () => {
    const body = { store: false, input: 'Count from 1 to 3.' };
    const socket = await open();
    const messages = await socket.turn(body);
    socket.close();
    const sse = await fetch(`${serve.url}/openai-responses/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', ...body, stream: true }),
    });
    const events = parseSse(await sse.text()).events.filter((e) => e.data !== '[DONE]');
    expect(messages.map((m) => m.type)).toEqual(events.map((e) => (JSON.parse(e.data) as Message).type));
    expect(messages.slice(0, 2).map((m) => m.type)).toEqual(['response.created', 'response.in_progress']);
    const stream = messages.map((m) => ({ event: m.type, data: JSON.stringify(m) }));
    for (const schemas of [answerSchemasFor(spec)!, ...suiteSchemasFor(spec)])
      expect(answerProblems({ body: messages.at(-1)!.response, stream }, schemas), schemas.id).toEqual([]);
    expect(log.at(-2)).toMatchObject({ method: 'WS', path: '/openai-responses/responses', status: 200 });
  });

  it('continues a store:false chain on its connection, and only there', async () => {
    const first = await open();
    const a = completedId(await first.turn({ store: false, input: 'Remember: cobalt.' }));
    const next = await first.turn({ store: false, previous_response_id: a, input: 'What was it?' });
    expect(next.at(-1)!.type).toBe('response.completed');
    expect(completedId(next)).not.toBe(a);
    first.close();

    const second = await open();
    const refused = await second.turn({ store: false, previous_response_id: a, input: 'What was it?' });
    const wording = spec.rejections['previous-response-not-found']!.body as { error: { message: string } };
    expect(refused).toEqual([
      {
        type: 'error',
        status: 400,
        error: {
          type: 'invalid_request_error',
          code: 'previous_response_not_found',
          message: wording.error.message.replace('{id}', a),
          param: 'previous_response_id',
        },
      },
    ]);
    second.close();
  });

  it('a continuation that fails evicts the response it continued', async () => {
    const socket = await open();
    const a = completedId(await socket.turn({ store: false, input: 'Remember: ember.' }));
    const orphan = [{ type: 'function_call_output', call_id: 'call_never_made', output: 'x' }];
    const failed = await socket.turn({ store: false, previous_response_id: a, input: orphan });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      type: 'error',
      status: 400,
      error: { message: 'No tool call found for function call output with call_id call_never_made.', param: 'input' },
    });
    const retry = await socket.turn({ store: false, previous_response_id: a, input: 'Again.' });
    expect((retry[0]!.error as { code: string }).code).toBe('previous_response_not_found');
    socket.close();
  });

  it('a stored response (store left out: the API default) is continued from any connection', async () => {
    const first = await open();
    const a = completedId(await first.turn({ input: 'Remember: copper.' }));
    first.close();
    const second = await open();
    expect((await second.turn({ previous_response_id: a, input: 'Again.' })).at(-1)!.type).toBe('response.completed');
    second.close();
  });

  it('a message that is not response.create is refused in the harness words, and the connection stays usable', async () => {
    const socket = await open();
    const refused = await socket.turn({ type: 'response.cancel' });
    expect(refused[0]).toMatchObject({ type: 'error', status: 400, error: { type: 'reasoning_replay_serve_error' } });
    expect((await socket.turn({ input: 'Hi.' })).at(-1)!.type).toBe('response.completed');
    socket.close();
  });

  it('upgrades only on a Responses mock path', async () => {
    await expect(open('/deepseek/chat/completions')).rejects.toThrow(/404/);
  });
});
