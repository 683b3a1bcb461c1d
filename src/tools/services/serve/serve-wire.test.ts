import { connect, type ClientHttp2Session } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { followAnswer } from '../../../provider/answers/follow/follow-answer.js';
import { decodeEventStream } from '../recorder/bedrock-event-stream.js';
import { parseSse } from '../../../shared/sse/parse-sse.js';
import { startServe, type RunningServe } from './start-serve.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * The bytes serve puts on the wire, read by clients that are not ours: Bedrock's ConverseStream as
 * AWS event-stream frames (decoded by AWS's codec, checksums checked) in follow mode and from a
 * scenario's fixture, every other family as SSE; and HTTP/1.1 beside cleartext HTTP/2 (prior
 * knowledge, node:http2's own client) on one port.
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

const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const converse = (stream: boolean) =>
  `/bedrock-claude/model/${encodeURIComponent(MODEL)}/${stream ? 'converse-stream' : 'converse'}`;
const CONVERSE_BODY = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hello' }] }] });

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${serve.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('Bedrock ConverseStream on the wire', () => {
  it('is binary event-stream frames, whose events are the rendered answer (follow mode)', async () => {
    const response = await post(converse(true), CONVERSE_BODY);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const events = decodeEventStream(new Uint8Array(await response.arrayBuffer()));
    const spec = loaded.specs.find((s) => s.id === 'bedrock-claude')!;
    // The answer follow mode renders for this request (its reasoning is fresh per conversation), framed.
    // The model is the one in the path, as serve reads it there.
    const expected = followAnswer(spec, JSON.parse(CONVERSE_BODY), 0, 0, MODEL)!.rendered.stream.map(
      ({ event, data }) => ({
        event,
        data,
      }),
    );
    expect(events).toEqual(expected);
  });

  it('is binary frames too when a scenario fixture answers (the SSE the mocks speak is re-framed)', async () => {
    const response = await post(converse(true), CONVERSE_BODY, {
      'x-reasoning-replay-scenario': 'plain-two-turn-chat',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const events = decodeEventStream(new Uint8Array(await response.arrayBuffer()));
    const fixture = loaded.fixtures.get('bedrock-claude', 'plain-two-turn-chat')!.fixture;
    expect(events).toEqual(fixture.exchanges[0]!.response.stream!.events.map(({ event, data }) => ({ event, data })));
  });

  it('Converse stays JSON, and other families stream SSE', async () => {
    const json = await post(converse(false), CONVERSE_BODY);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(((await json.json()) as { stopReason: string }).stopReason).toBe('end_turn');
    const sse = await post(
      '/deepseek/chat/completions',
      JSON.stringify({ model: 'deepseek-v4-flash', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    const { events, truncated } = parseSse(await sse.text());
    expect(truncated).toBe(false);
    expect(events.at(-1)!.data).toBe('[DONE]');
  });
});

describe('HTTP/1.1 and cleartext HTTP/2 on the same port', () => {
  let session: ClientHttp2Session;
  beforeAll(() => {
    session = connect(serve.url);
  });
  afterAll(() => session.close());

  const h2 = (path: string, body: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/json',
        ...headers,
      });
      const chunks: Buffer[] = [];
      let head: Record<string, unknown> = {};
      stream.on('response', (h) => (head = h));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks) }));
      stream.on('error', reject);
      stream.end(body);
    });

  it('answers node:http2 with prior knowledge as it answers HTTP/1.1, several streams on one session', async () => {
    const body = JSON.stringify({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'Hi' }] });
    const [a, b] = await Promise.all([
      h2('/deepseek/chat/completions', body, { 'x-reasoning-replay-client': 'h2-client' }),
      h2('/deepseek/chat/completions', body, { 'x-reasoning-replay-client': 'h2-client' }),
    ]);
    const h1 = await post('/deepseek/chat/completions', body, { 'x-reasoning-replay-client': 'h1-client' });
    expect([a.status, b.status, h1.status]).toEqual([200, 200, 200]);
    expect(a.body.toString()).toBe(await h1.text());
    expect(a.headers['content-type']).toBe('application/json');
    expect(log.filter((e) => e.client === 'h2-client').map((e) => e.status)).toEqual([200, 200]);
  });

  it('streams Bedrock frames and refuses with the provider error over HTTP/2', async () => {
    const streamed = await h2(converse(true), CONVERSE_BODY);
    expect(streamed.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    expect(decodeEventStream(new Uint8Array(streamed.body)).map((e) => e.event)).toContain('messageStop');
    const refused = await h2(
      '/deepseek/chat/completions',
      JSON.stringify({
        model: 'deepseek-v4-flash',
        messages: [
          { role: 'user', content: 'Hi' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: '{}' },
        ],
      }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString()).error.message).toMatch(/reasoning_content/);
  });
});

describe('the endpoints agents call around generation, through serve', () => {
  const get = (path: string) => fetch(`${serve.url}${path}`);

  it('GET /openai/models lists the catalogue as it is, not as a followed generation', async () => {
    const response = await get('/openai/models');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { object: string; data: Array<{ id: string }> };
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m.id)).toContain('gpt-5.5');
  });

  it('Anthropic /v1/models and count_tokens, Gemini models.list, each in its own shape', async () => {
    const anthropic = (await (await get('/anthropic/v1/models')).json()) as { data: Array<{ type: string }> };
    expect(anthropic.data[0]!.type).toBe('model');
    const counted = await post(
      '/anthropic/v1/messages/count_tokens',
      JSON.stringify({ model: 'claude-opus-5', messages: [{ role: 'user', content: 'Hello' }] }),
    );
    expect(((await counted.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    const gemini = (await (await get('/gemini/v1beta/models')).json()) as { models: Array<{ name: string }> };
    expect(gemini.models[0]!.name).toMatch(/^models\//);
  });

  it("a path no mock models is answered in the provider's shape and names that path: GET /openai/responses", async () => {
    const response = await get('/openai/responses');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'Invalid URL (GET /v1/responses)', type: 'invalid_request_error', param: null, code: null },
    });
  });
});

describe('Responses stored by default, through serve', () => {
  it('a response asked without store is retrieved by id, with its input items, until deleted', async () => {
    const created = await post(
      '/openai/responses',
      JSON.stringify({ model: 'gpt-5', input: [{ role: 'user', content: 'Stored by default?' }] }),
    );
    expect(created.status).toBe(200);
    const response = (await created.json()) as { id: string; store: boolean };
    expect(response.store).toBe(true);
    const retrieved = await fetch(`${serve.url}/openai/responses/${response.id}`);
    expect(await retrieved.json()).toEqual(response);
    const items = (await (await fetch(`${serve.url}/openai/responses/${response.id}/input_items`)).json()) as {
      data: Array<{ content: unknown }>;
    };
    expect(items.data[0]!.content).toEqual([{ type: 'input_text', text: 'Stored by default?' }]);
    const deleted = await fetch(`${serve.url}/openai/responses/${response.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: response.id, object: 'response', deleted: true });
    expect((await fetch(`${serve.url}/openai/responses/${response.id}`)).status).toBe(404);
  });
});
