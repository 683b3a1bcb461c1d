import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { schemaValidator } from '../../../shared/validation/validate.js';
import { FindingsSoFar, type FindingsAnswer } from './findings-so-far.js';
import type { ServeLogEntry } from './serve-log.js';
import { FINDINGS_PATH, startServe, type RunningServe } from './start-serve.js';

/**
 * `GET /findings.json`: what a test runner in another language (the pytest plugin) reads after each test. Judged
 * over real HTTP with a client that is not our engine: a DeepSeek tool loop sent once with its reasoning and once
 * without; the answer must name the rule, the request and the rule's source from the provider spec, and match
 * specs/schema/serve-findings.schema.json.
 */
const loaded = loadMatrixInputs({});
const deepseek = loaded.specs.find((s) => s.id === 'deepseek')!;
const mustEchoSources = deepseek.rejections['reasoning-content-not-passed-back']!.sources;
const valid = (answer: unknown) => {
  const validate = schemaValidator('serve-findings.schema.json');
  expect(validate(answer), JSON.stringify(validate.errors)).toBe(true);
  return answer as FindingsAnswer;
};

let serve: RunningServe;
beforeAll(async () => {
  serve = await startServe({
    port: 0,
    specs: loaded.specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    log: () => undefined,
  });
});
afterAll(() => serve.close());

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    },
  },
];

/** One DeepSeek tool round, follow mode: the mock calls lookup_order; the second request replays that turn. */
async function toolRound(keepReasoning: boolean): Promise<number> {
  const post = (messages: unknown[]) =>
    fetch(`${serve.url}/deepseek/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-reasoning-replay-client': 'findings-test' },
      body: JSON.stringify({ model: 'deepseek-v4-flash', messages, tools: TOOLS }),
    });
  const user = { role: 'user', content: 'Where is order ORD-1234?' };
  const first = (await (await post([user])).json()) as {
    choices: Array<{ message: { reasoning_content?: string; tool_calls: Array<{ id: string }> } }>;
  };
  const { reasoning_content, ...rest } = first.choices[0]!.message;
  expect(reasoning_content).toBeTruthy();
  const assistant = keepReasoning ? { ...rest, reasoning_content } : rest;
  const tool = { role: 'tool', tool_call_id: rest.tool_calls[0]!.id, content: '{"status":"shipped"}' };
  const second = await post([user, assistant, tool]);
  await second.arrayBuffer();
  return second.status;
}

const findingsSince = async (since?: number) =>
  valid(await (await fetch(`${serve.url}${FINDINGS_PATH}${since === undefined ? '' : `?since=${since}`}`)).json());

describe('GET /findings.json on serve', () => {
  it('names nothing for a conforming tool round, then the rule, the request and the source for a broken one', async () => {
    const before = await findingsSince();
    expect(await toolRound(true)).toBe(200);
    const clean = await findingsSince(before.next);
    expect(clean.flagged).toEqual([]);
    expect(clean.requests).toBe(before.requests + 2);

    expect(await toolRound(false)).toBe(400);
    const broken = await findingsSince(clean.next);
    expect(broken.requests).toBe(clean.requests + 2);
    expect(broken.flagged).toHaveLength(1);
    const [flagged] = broken.flagged;
    expect(flagged!.verdict).toBe('fail');
    expect(flagged!.request).toMatchObject({
      provider: 'deepseek',
      method: 'POST',
      path: '/deepseek/chat/completions',
      status: 400,
      call: 1,
      client: 'findings-test',
    });
    expect(flagged!.findings).toEqual([
      expect.objectContaining({
        rule: 'must-echo',
        rejection: 'reasoning-content-not-passed-back',
        warning: false,
        sources: mustEchoSources,
      }),
    ]);
    // The cursor moves on: asked again from `next`, the same request is not reported twice.
    expect((await findingsSince(broken.next)).flagged).toEqual([]);
  });

  it('reports a request no mock could be handed as a failure with what serve answered', async () => {
    const { next } = await findingsSince();
    const response = await fetch(`${serve.url}/deepsek/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const [miss] = (await findingsSince(next)).flagged;
    expect(miss).toMatchObject({ verdict: 'fail', request: { path: '/deepsek/chat/completions', status: 404 } });
    expect(miss!.miss).toMatchObject({ reason: 'unknown-provider' });
  });

  it('refuses a cursor that is not a number, with a harness error naming the form', async () => {
    const response = await fetch(`${serve.url}${FINDINGS_PATH}?since=last`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('?since=N');
  });

  it('is listed in GET /, beside the variables run would give an agent', async () => {
    const index = (await (await fetch(`${serve.url}/`)).json()) as { findings: string; env: Record<string, string> };
    expect(index.findings).toBe(`${serve.url}${FINDINGS_PATH}`);
    expect(index.env.OPENAI_BASE_URL).toBe(`${serve.url}/openai`);
    expect(index.env.REASONING_REPLAY_DEEPSEEK_BASE_URL).toBe(`${serve.url}/deepseek`);
    expect(index.env.DEEPSEEK_API_KEY).toMatch(/not-a-secret/);
    expect(index.env).not.toHaveProperty('REASONING_REPLAY_RUN_ID');
  });
});

const entry = (over: Partial<ServeLogEntry>): ServeLogEntry => ({
  seq: 1,
  time: '2026-01-01T00:00:00.000Z',
  provider: 'deepseek',
  route: 'deepseek',
  tier: 'must-echo',
  family: 'openai-chat',
  scenario: null,
  call: 1,
  method: 'POST',
  path: '/deepseek/chat/completions',
  status: 200,
  sentFields: [],
  findings: [],
  ...over,
});

describe('FindingsSoFar', () => {
  it('a contested rule answered leniently is a warning carrying both sides, not a failure', () => {
    const soFar = new FindingsSoFar(loaded.specs);
    const contested = {
      rule: 'provider-accepts',
      rejection: 'some-contested-rule',
      params: {},
      contested: true as const,
      lenient: true as const,
      sources: ['https://strict.example/side', 'https://lenient.example/side'],
    };
    soFar.addEntry(entry({ findings: [contested] }));
    const [flagged] = valid(soFar.since(0)).flagged;
    expect(flagged!.verdict).toBe('warn');
    expect(flagged!.findings[0]).toMatchObject({ warning: true, contested: true, sources: contested.sources });
  });

  it('a refusal with no finding (a harness error, an unworded 4xx) still fails; a clean request is only counted', () => {
    const soFar = new FindingsSoFar(loaded.specs);
    soFar.addEntry(entry({ seq: 1 }));
    soFar.addEntry(entry({ seq: 2, status: 413 }));
    const answer = valid(soFar.since(0));
    expect(answer.requests).toBe(2);
    expect(answer.flagged.map((f) => [f.request.seq, f.verdict])).toEqual([[2, 'fail']]);
  });

  it('keeps the latest `limit` flagged requests and says how many it dropped; cursors stay absolute', () => {
    const soFar = new FindingsSoFar(loaded.specs, 2);
    for (let seq = 1; seq <= 5; seq++) soFar.addEntry(entry({ seq, status: 500 }));
    const answer = soFar.since(0);
    expect(answer).toMatchObject({ next: 5, dropped: 3 });
    expect(answer.flagged.map((f) => f.n)).toEqual([3, 4]);
    expect(soFar.since(4).flagged.map((f) => f.request.seq)).toEqual([5]);
  });
});
