import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { CALL_HEADER } from '../../../shared/findings/finding.js';
import { startServe, type RunningServe } from './start-serve.js';
import type { ServeLogEntry } from './serve-log.js';

/**
 * The mocks keep the verdict and answer of a request to answer the same bytes again without judging
 * them again (src/provider/handlers/identical-requests.ts). Each case sends A, A again, then B, which
 * differs from A only in what picks the rule set or the answer (the provider in the path, the model
 * in the path or the body, the call), to one server; a second server sees only B. B's answer must be
 * the one B gets on its own, never A's kept answer.
 */
const loaded = loadMatrixInputs({});
const warmLog: ServeLogEntry[] = [];
let warm: RunningServe;
let fresh: RunningServe;
const start = (log: (e: ServeLogEntry) => void) =>
  startServe({ port: 0, specs: loaded.specs, fixtures: loaded.fixtures, table: loaded.table, log });
beforeAll(async () => {
  warm = await start((e) => warmLog.push(e));
  fresh = await start(() => undefined);
});
afterAll(async () => {
  await warm.close();
  await fresh.close();
});

interface Sent {
  path: string;
  body: string;
  headers?: Record<string, string>;
}
const send = async (server: RunningServe, r: Sent) => {
  const res = await fetch(`${server.url}${r.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...r.headers },
    body: r.body,
  });
  return { status: res.status, text: await res.text() };
};

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
  },
];
const chat = (model: string) =>
  JSON.stringify({ model, messages: [{ role: 'user', content: 'Where is order ORD-1234?' }], tools: TOOLS });
/** A streamed turn: its tools' argument schema and its question are what a fresh answer is drawn from. */
const streamed = (orderId: Record<string, unknown>, question = 'Where is order ORD-1234?') =>
  JSON.stringify({
    model: 'deepseek-v4-flash',
    stream: true,
    messages: [{ role: 'user', content: question }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'lookup_order',
          parameters: { type: 'object', properties: { order_id: orderId }, required: ['order_id'] },
        },
      },
    ],
  });
const gemini = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Where is order ORD-1234?' }] }] });

const CASES: Array<{ name: string; a: Sent; b: Sent }> = [
  {
    name: 'the same bytes to another provider',
    a: { path: '/deepseek/chat/completions', body: chat('deepseek-v4-flash') },
    b: { path: '/mimo/chat/completions', body: chat('deepseek-v4-flash') },
  },
  {
    name: 'the same bytes naming another model in the path',
    a: { path: '/gemini/v1beta/models/gemini-3-pro-preview:generateContent', body: gemini },
    b: { path: '/gemini/v1beta/models/gemini-2.5-flash:generateContent', body: gemini },
  },
  {
    name: 'another model in the body',
    a: { path: '/deepseek/chat/completions', body: chat('deepseek-v4-flash') },
    b: { path: '/deepseek/chat/completions', body: chat('deepseek-reasoner') },
  },
  {
    name: 'the same bytes as another call of the conversation',
    a: { path: '/deepseek/chat/completions', body: chat('deepseek-v4-flash'), headers: { [CALL_HEADER]: '0' } },
    b: { path: '/deepseek/chat/completions', body: chat('deepseek-v4-flash'), headers: { [CALL_HEADER]: '3' } },
  },
  {
    // The tool arguments are drawn once per schema and seed (kept-samples.ts), the stream's bytes once per answer.
    name: 'a streamed turn whose tool takes another argument schema',
    a: { path: '/deepseek/chat/completions', body: streamed({ type: 'string' }) },
    b: { path: '/deepseek/chat/completions', body: streamed({ type: 'integer', minimum: 1000, maximum: 9999 }) },
  },
  {
    name: 'a streamed turn of another conversation with the same tools',
    a: { path: '/deepseek/chat/completions', body: streamed({ type: 'string' }) },
    b: { path: '/deepseek/chat/completions', body: streamed({ type: 'string' }, 'Where is order ORD-9876?') },
  },
];

describe('serve answers identical requests from what it kept, and only those', () => {
  it.each(CASES)('$name: B gets its own answer after A', async ({ a, b }) => {
    const first = await send(warm, a);
    const again = await send(warm, a);
    expect(again).toEqual(first);
    const afterA = await send(warm, b);
    const alone = await send(fresh, b);
    expect(afterA).toEqual(alone);
    // The case tells the two apart: a kept answer for A would be seen here.
    expect(afterA.text).not.toBe(first.text);
  });

  it('logs a kept answer as it logged the first one, with its own sequence number', async () => {
    const r = { path: '/deepseek/chat/completions', body: chat('deepseek-v4-flash') };
    const from = warmLog.length;
    await send(warm, r);
    await send(warm, r);
    const [one, two] = warmLog.slice(from);
    expect(two!.seq).toBe(one!.seq + 1);
    const { seq: _s1, time: _t1, ...restOne } = one!;
    const { seq: _s2, time: _t2, ...restTwo } = two!;
    expect(restTwo).toEqual(restOne);
  });
});

/** A DeepSeek tool turn that sends reasoning back: its log line names the carrier and says it replays. */
const replaying = JSON.stringify({
  model: 'deepseek-v4-flash',
  messages: [
    { role: 'user', content: 'Where is order ORD-1234?' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'The user wants an order status; look it up.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"ORD-1234"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"status":"shipped"}' },
  ],
  tools: TOOLS,
});

describe('what serve keeps per body never leaks from one request into another', () => {
  it('gives each request its own log fields, whatever the log did to the last one', async () => {
    const entries: ServeLogEntry[] = [];
    const server = await start((e) => {
      entries.push(structuredClone(e));
      // A log consumer that writes to the entry it was handed.
      e.sentFields.push('written-by-the-log');
      e.findings.push({ rule: 'written-by-the-log', rejection: 'x', params: {} });
    });
    try {
      for (let i = 0; i < 3; i++) await send(server, { path: '/deepseek/chat/completions', body: replaying });
    } finally {
      await server.close();
    }
    expect(entries.map((e) => [e.status, e.sentFields, e.findings, e.replays])).toEqual(
      Array.from({ length: 3 }, () => [200, ['reasoning_content'], [], true]),
    );
  });

  it('reads a body refused once for its header as any other body when it comes back without it', async () => {
    const from = warmLog.length;
    const refused = {
      path: '/deepseek/chat/completions',
      body: replaying,
      headers: { 'x-reasoning-replay-scenario': 'no-such' },
    };
    await send(warm, refused);
    await send(warm, { path: '/deepseek/chat/completions', body: replaying });
    await send(warm, refused);
    expect(warmLog.slice(from).map((e) => [e.status, e.sentFields, e.replays ?? false])).toEqual([
      [400, [], false],
      [200, ['reasoning_content'], true],
      [400, [], false],
    ]);
  });
});
