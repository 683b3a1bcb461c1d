import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startProviderMocks, type ProviderMocks } from '../provider-mocks/provider-mocks.js';

/**
 * Faults on the wire, through the library's mocks (the same serve `run` uses): a Messages stream cut in the middle of
 * its signature drops the connection after a part of it; a 429 on the tool-result turn carries Retry-After and the
 * resend is answered. Each fails when the mock does not inject the fault as specs/faults.json says.
 */
let mocks: ProviderMocks;
beforeAll(async () => {
  mocks = await startProviderMocks({
    providers: ['anthropic', 'openrouter'],
    faults: ['messages-cut-mid-signature', 'rate-limited-429-mid-loop', 'openrouter-cut-before-signature'],
    seed: 11,
  });
});
afterAll(() => mocks.close());

const tools = [
  { name: 'lookup_order', description: 'Where an order is', input_schema: { type: 'object', properties: {} } },
];
const messagesRequest = (messages: unknown[], stream: boolean, thinking = true) =>
  fetch(`${mocks.baseUrls.anthropic}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      ...(thinking ? { thinking: { type: 'enabled', budget_tokens: 1024 } } : {}),
      stream,
      tools,
      messages,
    }),
  });

async function readAll(res: Response): Promise<{ text: string; error?: unknown }> {
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk);
  } catch (error) {
    return { text, error };
  }
  return { text };
}

describe('faults on the wire', () => {
  it('a Messages stream is cut after part of its signature: no block stop, no message_stop, the connection dropped', async () => {
    const res = await messagesRequest([{ role: 'user', content: 'Where is ORD-1?' }], true);
    expect(res.status).toBe(200);
    const { text, error } = await readAll(res);
    expect(error, 'the body ended cleanly: the connection was not dropped').toBeDefined();
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as { type: string; delta?: { type: string; signature?: string } });
    expect(events.at(-1)!.delta?.type).toBe('signature_delta');
    expect(events.some((e) => e.type === 'content_block_stop' || e.type === 'message_stop')).toBe(false);
    const entry = mocks.verdicts.at(-1)!;
    expect(entry.fault?.name).toBe('messages-cut-mid-signature');
    expect(entry.fault?.where).toMatch(/cut after \d+ of the signature’s \d+ characters/);
    const verdict = mocks.faults().verdicts[0]!;
    expect(verdict).toMatchObject({ fault: 'messages-cut-mid-signature', status: 'pass' });
  });

  it('the tool-result turn is answered 429 with Retry-After once; the resend is answered', async () => {
    const history = [
      { role: 'user', content: 'Where is ORD-1?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup_order', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'shipped' }] },
    ];
    // Without thinking: a hand-written tool turn has no signed block to send back.
    const limited = await messagesRequest(history, false, false);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(((await limited.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
    await new Promise((r) => setTimeout(r, 1000));
    const again = await messagesRequest(history, false, false);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect(mocks.violations()).toEqual([]);
    expect(mocks.faults().verdicts.find((v) => v.fault === 'rate-limited-429-mid-loop')?.status).toBe('pass');
  });

  it('an OpenRouter stream is cut after Claude’s reasoning text and before its signature delta', async () => {
    const res = await fetch(`${mocks.baseUrls.openrouter}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({
        model: 'anthropic/claude-sonnet-4.5',
        stream: true,
        reasoning: { max_tokens: 1024 },
        messages: [{ role: 'user', content: 'Where is ORD-1?' }],
      }),
    });
    expect(res.status).toBe(200);
    const { text, error } = await readAll(res);
    expect(error).toBeDefined();
    expect(text).toContain('reasoning.text');
    expect(text).not.toContain('"signature"');
    expect(text).not.toContain('finish_reason":"stop"');
    expect(mocks.verdicts.at(-1)!.fault?.name).toBe('openrouter-cut-before-signature');
    expect(mocks.faults().notReached).toEqual([]);
  });
});

describe('a Messages stream that ends cleanly in the middle of its signature', () => {
  let clean: ProviderMocks;
  beforeAll(async () => {
    clean = await startProviderMocks({
      providers: ['anthropic'],
      faults: 'messages-stream-ends-mid-signature',
      seed: 11,
    });
  });
  afterAll(() => clean.close());

  it('the body ends without an error (the connection is not dropped), with part of the signature and no block or message stop', async () => {
    const res = await fetch(`${clean.baseUrls.anthropic}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        stream: true,
        tools,
        messages: [{ role: 'user', content: 'Where is ORD-1?' }],
      }),
    });
    expect(res.status).toBe(200);
    const { text, error } = await readAll(res);
    expect(error, 'the connection was dropped: a clean end was asked for').toBeUndefined();
    const events = text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)) as { type: string; delta?: { type: string; signature?: string } });
    expect(events.at(-1)!.delta?.type).toBe('signature_delta');
    expect(events.some((e) => ['content_block_stop', 'message_delta', 'message_stop', 'error'].includes(e.type))).toBe(
      false,
    );
    const entry = clean.verdicts.at(-1)!;
    expect(entry.fault?.name).toBe('messages-stream-ends-mid-signature');
    expect(entry.fault?.where).toMatch(/cut after \d+ of the signature’s \d+ characters; the body then ended cleanly/);
  });
});

describe('a gateway that switches upstream between turns', () => {
  let gw: ProviderMocks;
  beforeEach(async () => {
    gw = await startProviderMocks({ providers: ['anthropic'], faults: 'gateway-upstream-switch' });
  });
  afterEach(() => gw.close());

  const post = (body: Record<string, unknown>) =>
    fetch(`${gw.baseUrls.anthropic}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'k',
        'anthropic-version': '2023-06-01',
        'x-reasoning-replay-client': `switch-${String(body.client)}`,
      },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 2048, tools, ...body, client: undefined }),
    });

  it('its signatures are refused once (the fault’s doing); resubmitting them fails, stripping them passes', async () => {
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const first = [{ role: 'user', content: 'Where is ORD-1?' }];
    const answer = (await (await post({ client: 'a', thinking, messages: first })).json()) as {
      content: Array<{ type: string; id?: string; signature?: string }>;
    };
    expect(gw.verdicts[0]!.fault?.name).toBe('gateway-upstream-switch');
    const call = answer.content.find((b) => b.type === 'tool_use')!;
    const replay = [
      ...first,
      { role: 'assistant', content: answer.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'shipped' }] },
    ];
    const refused = await post({ client: 'a', thinking, messages: replay });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Invalid `signature` in `thinking` block');
    expect(gw.verdicts[1]!.expectedRefusal).toBe('gateway-upstream-switch');
    expect(gw.violations()).toEqual([]);

    // Resubmitting the same history is what openclaw/openclaw#95627 counted 29 times a day.
    await (await post({ client: 'a', thinking, messages: replay })).arrayBuffer();
    expect(gw.violations().map((e) => e.findings.map((f) => f.params.damage))).toEqual([
      expect.arrayContaining(['same-history-resubmitted']),
    ]);
    expect(gw.faults().verdicts[0]).toMatchObject({ status: 'fail', damage: { seq: 3 } });
  });

  it('an agent that drops the refused thinking and retries once recovers', async () => {
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const first = [{ role: 'user', content: 'Where is ORD-1?' }];
    const answer = (await (await post({ client: 'b', thinking, messages: first })).json()) as {
      content: Array<{ type: string; id?: string }>;
    };
    const call = answer.content.find((b) => b.type === 'tool_use')!;
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'shipped' }] };
    const replay = [...first, { role: 'assistant', content: answer.content }, result];
    expect((await post({ client: 'b', thinking, messages: replay })).status).toBe(400);
    // Strip the thinking the current upstream cannot verify, and retry once (thinking off for this request).
    const stripped = [
      ...first,
      { role: 'assistant', content: answer.content.filter((b) => b.type !== 'thinking') },
      result,
    ];
    const retried = await post({ client: 'b', messages: stripped });
    expect(retried.status, await retried.clone().text()).toBe(200);
    expect(gw.violations()).toEqual([]);
    expect(gw.faults().verdicts[0]).toMatchObject({ fault: 'gateway-upstream-switch', status: 'pass' });
  });
});
