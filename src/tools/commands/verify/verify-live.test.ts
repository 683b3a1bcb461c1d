import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realWorldAgreement } from '../../services/real-world-cases/agreement.js';
import { loadRealWorldCase, type LoadedCase } from '../../services/real-world-cases/real-world-case.js';
import { startFakeLiveProvider, type FakeLiveProvider } from './fake-live-provider.test-helper.js';
import { planVerify } from './plan-verify.js';
import { resolveLiveProviders } from './live-providers.js';
import {
  fixtures,
  limits,
  liveCase,
  prices,
  scenarios,
  specs,
  table,
  verifyAgainst,
  type VerifyAgainst,
} from './verify-run.test-helper.js';

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
const ds = (id: string, messages: unknown[]) =>
  liveCase(id, 'deepseek', 'deepseek-v4-flash', { model: 'deepseek-v4-flash', messages, tools });
/** The mock refuses it (DeepSeek V4: a tool-call turn of the current turn needs its reasoning_content). */
const toolTurnWithout = ds('t-tool-turn-without-reasoning', [
  { role: 'user', content: 'Weather?' },
  { role: 'assistant', content: null, tool_calls: [call] },
  { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
]);
/** The mock accepts it. */
const toolTurnWith = ds('t-tool-turn-with-reasoning', [
  { role: 'user', content: 'Weather?' },
  { role: 'assistant', content: null, reasoning_content: 'Call the tool.', tool_calls: [call] },
  { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
]);
/** The mock accepts it: a plain turn before the last user message needs nothing. */
const plainTurnWithout = ds('t-plain-turn-without-reasoning', [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello!' },
  { role: 'user', content: 'Weather?' },
]);
const CASES = [toolTurnWithout, toolTurnWith, plainTurnWithout];

const summary = (v: VerifyAgainst) =>
  v.run.results.map(
    (r) => `${r.kind === 'case' ? r.id : `${r.id}#${r.call}`} ${r.outcome === 'compared' ? r.category : r.outcome}`,
  );

/** Every file under `dir`, recursively, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? filesUnder(join(dir, e.name))
      : [[join(dir, e.name), readFileSync(join(dir, e.name), 'utf8')] as [string, string]],
  );
}

/** The key in every spelling a fake echoes it in. */
const spellings = (key: string) => [
  key,
  key.slice(8, 28),
  Buffer.from(key).toString('base64').slice(4, 28),
  Buffer.from(key).toString('base64url').slice(4, 28),
  Buffer.from(`Bearer ${key}`).toString('base64').slice(8, 32),
  [...key.slice(0, 12)].map((c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).join(''),
];

function mustHoldNoKey(v: VerifyAgainst, extra: string[] = []): void {
  const texts = [
    ...filesUnder(v.out).map(([, t]) => t),
    JSON.stringify(v.run.results),
    v.run.stopped?.message ?? '',
    ...extra,
  ];
  for (const s of spellings(v.key))
    for (const t of texts) expect(t.includes(s), `a spelling of the key (${s.slice(0, 4)}…) leaked`).toBe(false);
}

/** The written cases, loaded as the corpus loads them, each replayed against the mocks. */
async function writtenCases(v: VerifyAgainst): Promise<LoadedCase[]> {
  const dir = join(v.out, 'real-world');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((f) => loadRealWorldCase(join(dir, f)));
}

describe('verify --live against loopback fakes whose rules differ from the mocks', () => {
  it('a faithful fake: every result agrees and no case is written', async () => {
    const v = await verifyAgainst('faithful', { cases: CASES, scenarios: ['tool-call-with-reasoning'] });
    expect(summary(v)).toEqual([
      't-tool-turn-without-reasoning agrees',
      't-tool-turn-with-reasoning agrees',
      't-plain-turn-without-reasoning agrees',
      'tool-call-with-reasoning#0 agrees',
      'tool-call-with-reasoning#1 agrees',
    ]);
    expect(v.report.casesWritten).toEqual([]);
    expect(v.fake.requests).toHaveLength(5);
  });

  it('a lenient fake: the mock is too strict where it refuses, and the difference is written as a case', async () => {
    const v = await verifyAgainst('lenient', { cases: CASES });
    expect(summary(v)).toEqual([
      't-tool-turn-without-reasoning mock-too-strict',
      't-tool-turn-with-reasoning agrees',
      't-plain-turn-without-reasoning agrees',
    ]);
    const written = await writtenCases(v);
    expect(written.map((c) => c.case.id)).toEqual([
      't-tool-turn-without-reasoning-live-' + v.run.startedAt.slice(0, 10).replaceAll('-', ''),
    ]);
    const c = written[0]!.case;
    expect(c.outcome).toEqual({ accepted: true });
    expect(c.provenance).toMatchObject({
      kind: 'recorded',
      derivedFrom: 'real-world case t-tool-turn-without-reasoning',
    });
    expect(c.provenance!.endpointHost).toBe(new URL(v.fake.url).host);
    // Dated by the live answer itself, so the corpus counts it as an observation of that day.
    expect({ date: c.date, dateBasis: c.dateBasis }).toEqual({
      date: c.provenance!.date.slice(0, 10),
      dateBasis: 'recorded',
    });
    expect(c.model).toBe('deepseek-v4-flash');
    expect(c.source.url).toBe('https://api.deepseek.com/chat/completions');
    // Replayed in the corpus, the new case disagrees with the mock: it carries the drift.
    const agreement = await realWorldAgreement({ cases: written });
    expect(agreement.total.disagree).toBe(1);
  });

  it('a strict fake: the mock is too lenient (a case and a scenario call) and a reworded refusal is found', async () => {
    const v = await verifyAgainst('strict', { cases: CASES, scenarios: ['tool-call-with-reasoning'] });
    expect(summary(v)).toEqual([
      't-tool-turn-without-reasoning wording-changed',
      't-tool-turn-with-reasoning agrees',
      't-plain-turn-without-reasoning mock-too-lenient',
      'tool-call-with-reasoning#0 agrees',
      // The fake answered without reasoning; the engine padded " " (must-echo), which the mock takes.
      'tool-call-with-reasoning#1 mock-too-lenient',
    ]);
    const written = await writtenCases(v);
    expect(written).toHaveLength(3);
    for (const { case: c } of written) {
      expect(c.outcome).toMatchObject({ status: 400 });
      expect((c.outcome as { wording: string }).wording).toMatch(
        /^Fake provider: every assistant message needs non-blank reasoning_content/,
      );
    }
    const scenarioCase = written.find(
      (c) => c.case.provenance?.derivedFrom === 'scenario tool-call-with-reasoning call 1',
    )!;
    // The scripted tool result was paired with the live tool call, and the pad is what was sent.
    const messages = (scenarioCase.case.request.body as { messages: Array<Record<string, unknown>> }).messages;
    expect(messages.find((m) => m.role === 'tool')!.tool_call_id).toBe('call_fake_1');
    expect(messages.find((m) => m.role === 'assistant')!.reasoning_content).toBe(' ');
    expect((await realWorldAgreement({ cases: written })).total.disagree).toBe(3);
  });

  it('a reworded fake: same rule, other words, filed as wording changed under the mock rule', async () => {
    const v = await verifyAgainst('reworded', { cases: CASES });
    expect(summary(v)).toEqual([
      't-tool-turn-without-reasoning wording-changed',
      't-tool-turn-with-reasoning agrees',
      't-plain-turn-without-reasoning agrees',
    ]);
    const changed = v.run.results[0]!;
    expect(changed.rule).toBe('reasoning-content-not-passed-back');
    expect(changed.detail).toBe("the live wording names no rule of deepseek's spec");
    expect(v.report.providers[0]!.rules).toContainEqual(
      expect.objectContaining({ rule: 'reasoning-content-not-passed-back', 'wording-changed': 1 }),
    );
    expect((await writtenCases(v)).map((c) => c.case.outcome)).toEqual([
      { status: 400, wording: 'Fake provider: tool-call turns must echo their reasoning_content.' },
    ]);
  });

  it('a 429 stops the run at the first request, and nothing more reaches the provider', async () => {
    const v = await verifyAgainst('rate-limited', { cases: CASES, scenarios: ['tool-call-with-reasoning'] });
    expect(v.fake.requests).toHaveLength(1);
    expect(v.run.stopped?.reason).toBe('refused');
    expect(v.run.stopped?.message).toMatch(/deepseek is rate-limiting this key \(429\).*stopped after 1 request/);
    expect(v.run.results.map((r) => r.outcome)).toEqual(['not-run', 'not-run', 'not-run', 'not-run']);
  });

  it('a 401 stops the run, names the key variable and never the key, even when the provider echoes it', async () => {
    const v = await verifyAgainst('unauthorized', { cases: CASES, plant: true });
    expect(v.fake.requests).toHaveLength(1);
    expect(v.run.stopped?.message).toMatch(/refused the key \(401\).*Check DEEPSEEK_API_KEY\./);
    mustHoldNoKey(v);
  });

  it('a fake that never answers: the request ends at its deadline and the provider is not asked again', async () => {
    const v = await verifyAgainst('slow', { cases: CASES, timeoutMs: 200 });
    expect(v.fake.requests).toHaveLength(1);
    expect(v.run.results[0]).toMatchObject({
      outcome: 'error',
      detail: 'no complete answer within 200 ms (--timeout)',
    });
    expect(v.run.results.slice(1).map((r) => r.outcome)).toEqual(['skipped', 'skipped']);
    expect(v.report.totals.error).toBe(1);
  });

  it('a fake that drops the connection: an error, not a drift, and the provider is not asked again', async () => {
    const v = await verifyAgainst('drop', { cases: CASES });
    expect(v.fake.requests).toHaveLength(1);
    expect(v.run.results[0]!.outcome).toBe('error');
    expect(v.run.results[0]!.detail).toMatch(/^the connection failed before a whole answer/);
    expect(v.report.casesWritten).toEqual([]);
  });

  it('a key planted in every spelling is in no report, case, result or message', async () => {
    const v = await verifyAgainst('strict', { cases: CASES, scenarios: ['tool-call-with-reasoning'], plant: true });
    expect(v.report.casesWritten.length).toBeGreaterThan(0);
    // The key travels as the credential only: answers are redacted as they arrive, so the engine
    // never sends the echoed key back in a later turn's body.
    expect(v.fake.requests.every((r) => r.headers.authorization === `Bearer ${v.key}`)).toBe(true);
    for (const r of v.fake.requests) for (const s of spellings(v.key)) expect(JSON.stringify(r.body)).not.toContain(s);
    expect(JSON.stringify(v.fake.requests.at(-1)!.body)).toContain('[redacted-by-recorder:DEEPSEEK_API_KEY]');
    mustHoldNoKey(v);
  });
});

describe('verify --live never passes its caps (requests counted at the fake)', () => {
  let fake: FakeLiveProvider;
  beforeAll(async () => {
    fake = await startFakeLiveProvider('lenient');
  });
  afterAll(() => fake.close());

  it('--max-requests: exactly that many requests, the rest not run', async () => {
    const before = fake.requests.length;
    const v = await verifyAgainst('lenient', { cases: CASES, caps: { maxRequests: 2 }, fake });
    expect(fake.requests.length - before).toBe(2);
    expect(v.run.results.map((r) => r.outcome)).toEqual(['compared', 'compared', 'not-run']);
    expect(v.run.stopped).toMatchObject({ reason: 'cap' });
    expect(v.run.stopped!.message).toMatch(/--max-requests 2/);
  });

  it('--max-cost: an item whose estimate does not fit is not sent', async () => {
    const { providers } = resolveLiveProviders(
      specs.filter((s) => s.id === 'deepseek'),
      limits,
      new Map([['deepseek', fake.url]]),
      { DEEPSEEK_API_KEY: 'sk-test-0123456789abcdef' },
    );
    const plan = await planVerify({
      providers,
      specs,
      table,
      cases: CASES,
      scenarios,
      fixtures,
      prices,
      select: { providers: ['deepseek'], cases: CASES.map((c) => c.case.id) },
    });
    const first = plan[0]!.cost;
    const before = fake.requests.length;
    const v = await verifyAgainst('lenient', { cases: CASES, caps: { maxCost: first * 1.5 }, fake });
    expect(fake.requests.length - before).toBe(1);
    expect(v.run.guard.charged).toBeLessThanOrEqual(first * 1.5);
    expect(v.run.stopped!.message).toMatch(/--max-cost/);
  });

  it('for any caps and any number of cases, never more requests than --max-requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 }), async (maxRequests, n) => {
        const before = fake.requests.length;
        const cases = Array.from({ length: n }, (_, i) => ds(`t-gen-${i}`, [{ role: 'user', content: `q${i}` }]));
        const v = await verifyAgainst('lenient', { cases, caps: { maxRequests }, fake });
        const sent = fake.requests.length - before;
        expect(sent).toBe(Math.min(n, maxRequests));
        expect(v.run.guard.sent).toBe(sent);
      }),
      { numRuns: 12 },
    );
  });
});
