import { describe, expect, it } from 'vitest';
import type { OutboundRequest } from '../../shared/wire/outbound-request.js';
import { CALL_HEADER, SCENARIO_HEADER } from '../../shared/findings/finding.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { jsonMockAnswer, type MockAnswer } from './mock-exchange.js';
import { mockRoute } from './mock-route.js';
import { routesByOrigin, routesTransport } from './routes-transport.js';

const spec = { id: 'p', endpoint: { baseUrl: 'https://api.example.test/v1/' } } as unknown as ProviderSpec;
const request: OutboundRequest = {
  family: 'openai-chat',
  method: 'POST',
  path: '/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: { model: 'm', messages: [] },
};
const meta = { scenario: 's', call: 2 };
const CHAT = /^https:\/\/api\.example\.test\/v1\/chat\/completions$/;
const ok = (value: unknown, status = 200, headers: Record<string, string> = {}): MockAnswer =>
  jsonMockAnswer(value, { status, headers });

describe('routesTransport (the matrix through the mock routes, in process)', () => {
  it('hands the request to the first route that claims it, with the scenario and call headers, and reads the answer', async () => {
    const seen: Array<{ url: string; scenario: string | null; call: string | null; body: unknown }> = [];
    const send = routesTransport([
      mockRoute.post(/^https:\/\/api\.example\.test\/v1\/other$/, () => ok({ wrong: true })),
      // A route that declines (answers nothing) lets the next one answer, as behind setupServer.
      mockRoute.post(CHAT, () => undefined),
      mockRoute.post(CHAT, (r) => {
        seen.push({
          url: r.url,
          scenario: r.header(SCENARIO_HEADER),
          call: r.header(CALL_HEADER),
          body: JSON.parse(r.text),
        });
        return ok({ ok: 1 }, 201, { 'X-A': ' b ' });
      }),
    ]);
    const response = await send(request, spec, meta);
    // Headers as fetch reads them out: lower-case names, trimmed values.
    expect(response).toMatchObject({ status: 201, body: { ok: 1 }, headers: { 'x-a': 'b' } });
    expect(seen).toEqual([
      { url: 'https://api.example.test/v1/chat/completions', scenario: 's', call: '2', body: request.body },
    ]);
  });

  it('keeps an event stream as its text and fails a request no route claims', async () => {
    const send = routesTransport([
      mockRoute.post(CHAT, () => ({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: { events: [{ data: '{"a":1}', atMs: 5 }], pace: 1 },
      })),
    ]);
    expect((await send(request, spec, meta)).body).toBe('data: {"a":1}\n\n');
    await expect(send({ ...request, path: '/nowhere' }, spec, meta)).rejects.toThrow(
      'no mock handler claims POST https://api.example.test/v1/nowhere',
    );
  });

  it('fails a call whose answer does not come within the deadline', async () => {
    const send = routesTransport([mockRoute.post(CHAT, () => new Promise<MockAnswer>(() => {}))], 20);
    await expect(send(request, spec, meta)).rejects.toThrow(/timeout|aborted/i);
  });

  it('through routesByOrigin, groups that share the origin answer in their order and other origins are never asked', async () => {
    const asked: string[] = [];
    const route = (name: string, pattern: RegExp, answer?: unknown) =>
      mockRoute.post(pattern, () => {
        asked.push(name);
        return answer === undefined ? undefined : ok(answer);
      });
    const first = route('first spec declines', CHAT);
    const other = route('other origin', /^https:\/\/elsewhere\.test\/v1\/chat\/completions$/, { wrong: true });
    const second = route('second spec answers', CHAT, { ok: 2 });
    const lookup = routesByOrigin([
      { origin: 'https://api.example.test', routes: [first] },
      { origin: 'https://elsewhere.test', routes: [other] },
      { origin: 'https://api.example.test', routes: [second] },
    ]);
    // Only the routes whose origin is the URL's, in the groups' order (a path or query never widens it).
    expect(lookup('https://api.example.test/v1/anything?x=1')).toEqual([first, second]);
    expect(lookup('https://elsewhere.test/v1/chat/completions')).toEqual([other]);
    const send = routesTransport(lookup);
    expect((await send(request, spec, meta)).body).toEqual({ ok: 2 });
    expect(asked).toEqual(['first spec declines', 'second spec answers']);
    await expect(
      send(request, { ...spec, endpoint: { baseUrl: 'https://unknown.test/v1' } } as unknown as ProviderSpec, meta),
    ).rejects.toThrow('no mock handler claims POST https://unknown.test/v1/chat/completions');
  });
});
