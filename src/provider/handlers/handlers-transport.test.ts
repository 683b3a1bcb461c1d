import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { OutboundRequest } from '../../shared/wire/outbound-request.js';
import { CALL_HEADER, SCENARIO_HEADER } from '../../shared/findings/finding.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { handlersByOrigin, handlersTransport } from './handlers-transport.js';

const spec = { id: 'p', endpoint: { baseUrl: 'https://api.example.test/v1/' } } as unknown as ProviderSpec;
const request: OutboundRequest = {
  family: 'openai-chat',
  method: 'POST',
  path: '/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: { model: 'm', messages: [] },
};
const meta = { scenario: 's', call: 2 };

describe('handlersTransport (the matrix through msw handlers, without fetch interception)', () => {
  it('hands the request to the first handler that claims it, with the scenario and call headers, and reads the answer', async () => {
    const seen: Array<{ url: string; scenario: string | null; call: string | null; body: unknown }> = [];
    const send = handlersTransport([
      http.post('https://api.example.test/v1/other', () => HttpResponse.json({ wrong: true })),
      // A handler that declines (returns nothing) lets the next one answer, as behind setupServer.
      http.post('https://api.example.test/v1/chat/completions', () => undefined),
      http.post('https://api.example.test/v1/chat/completions', async ({ request: r }) => {
        seen.push({
          url: r.url,
          scenario: r.headers.get(SCENARIO_HEADER),
          call: r.headers.get(CALL_HEADER),
          body: await r.json(),
        });
        return HttpResponse.json({ ok: 1 }, { status: 201, headers: { 'x-a': 'b' } });
      }),
    ]);
    const response = await send(request, spec, meta);
    expect(response).toMatchObject({ status: 201, body: { ok: 1 }, headers: { 'x-a': 'b' } });
    expect(seen).toEqual([
      { url: 'https://api.example.test/v1/chat/completions', scenario: 's', call: '2', body: request.body },
    ]);
  });

  it('keeps an event stream as text and fails a request no handler claims', async () => {
    const send = handlersTransport([
      http.post(
        'https://api.example.test/v1/chat/completions',
        () => new HttpResponse('data: {"a":1}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      ),
    ]);
    expect((await send(request, spec, meta)).body).toBe('data: {"a":1}\n\n');
    await expect(send({ ...request, path: '/nowhere' }, spec, meta)).rejects.toThrow(
      'no mock handler claims POST https://api.example.test/v1/nowhere',
    );
  });

  it('fails a call whose answer does not come within the deadline', async () => {
    const send = handlersTransport(
      [http.post('https://api.example.test/v1/chat/completions', () => new Promise<Response>(() => {}))],
      20,
    );
    await expect(send(request, spec, meta)).rejects.toThrow(/timeout|aborted/i);
  });

  it('through handlersByOrigin, groups that share the origin answer in their order and other origins are never asked', async () => {
    const asked: string[] = [];
    const handler = (name: string, url: string, answer?: unknown) =>
      http.post(url, () => {
        asked.push(name);
        return answer === undefined ? undefined : HttpResponse.json(answer);
      });
    const first = handler('first spec declines', 'https://api.example.test/v1/chat/completions');
    const other = handler('other origin', 'https://elsewhere.test/v1/chat/completions', { wrong: true });
    const second = handler('second spec answers', 'https://api.example.test/v1/chat/completions', { ok: 2 });
    const lookup = handlersByOrigin([
      { origin: 'https://api.example.test', handlers: [first] },
      { origin: 'https://elsewhere.test', handlers: [other] },
      { origin: 'https://api.example.test', handlers: [second] },
    ]);
    // Only the handlers whose origin is the URL's, in the groups' order (a path or query never widens it).
    expect(lookup('https://api.example.test/v1/anything?x=1')).toEqual([first, second]);
    expect(lookup('https://elsewhere.test/v1/chat/completions')).toEqual([other]);
    const send = handlersTransport(lookup);
    expect((await send(request, spec, meta)).body).toEqual({ ok: 2 });
    expect(asked).toEqual(['first spec declines', 'second spec answers']);
    await expect(
      send(request, { ...spec, endpoint: { baseUrl: 'https://unknown.test/v1' } } as unknown as ProviderSpec, meta),
    ).rejects.toThrow('no mock handler claims POST https://unknown.test/v1/chat/completions');
  });
});
