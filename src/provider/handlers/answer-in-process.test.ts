import { http, HttpResponse } from 'msw';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { answerInProcess, claimableHandlers } from './answer-in-process.js';
import { mockResolver, mockRoute } from './mock-route.js';

const origin = 'https://api.example.test';
const chat = `${origin}/v1/chat/completions`;
const post = (url: string, body: unknown = {}) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A request that counts its clones: msw clones each request once for its logs; the direct call never does. */
class CountingRequest extends Request {
  clones = 0;
  override clone(): Request {
    this.clones++;
    return super.clone();
  }
}

describe('answerInProcess', () => {
  it("calls a mock's own resolver with the request itself, without msw's clone", async () => {
    const seen: Request[] = [];
    const handler = mockRoute.post(chat, async ({ request }) => {
      seen.push(request);
      return HttpResponse.json(await request.json());
    });
    const request = new CountingRequest(chat, { method: 'POST', body: '{"a":1}' });
    const answer = await answerInProcess([handler], request);
    expect(await answer?.json()).toEqual({ a: 1 });
    expect(seen).toEqual([request]);
    expect(request.clones).toBe(0);
  });

  it('lets an own resolver that answers nothing fall through to the next claiming one, in order', async () => {
    const order: string[] = [];
    const handlers = [
      mockRoute.post(`${origin}/v1/other`, () => HttpResponse.json({ wrong: true })),
      mockRoute.post(chat, () => void order.push('declines')),
      mockRoute.get(chat, () => HttpResponse.json({ wrong: 'method' })),
      mockRoute.post(/^https:\/\/api\.example\.test\/v1\/chat\/.*$/, () => {
        order.push('answers');
        return HttpResponse.json({ ok: true }, { status: 201 });
      }),
      mockRoute.post(chat, () => HttpResponse.json({ wrong: 'too late' })),
    ];
    const answer = await answerInProcess(handlers, post(chat));
    expect([answer?.status, await answer?.json()]).toEqual([201, { ok: true }]);
    expect(order).toEqual(['declines', 'answers']);
    expect(await answerInProcess(handlers, post(`${origin}/v2/none`))).toBeUndefined();
  });

  it('takes a thrown Response as the answer, as msw does, and lets any other error out', async () => {
    const thrown = mockRoute.post(chat, () => {
      throw HttpResponse.json({ thrown: true }, { status: 418 });
    });
    expect((await answerInProcess([thrown], post(chat)))?.status).toBe(418);
    const failing = mockRoute.post(chat, () => {
      throw new TypeError('broken mock');
    });
    await expect(answerInProcess([failing], post(chat))).rejects.toThrow('broken mock');
  });

  it("sends the request through msw's getResponse when a claiming handler is not a mock's own", async () => {
    // A plain msw handler may read path params (and cookies): only msw's own resolution gives them.
    const foreign = http.post(`${origin}/v1/models/:model/invoke`, ({ params }) => HttpResponse.json(params));
    expect(mockResolver(foreign)).toBeUndefined();
    const request = new CountingRequest(`${origin}/v1/models/m-1/invoke`, { method: 'POST', body: '{}' });
    const answer = await answerInProcess([mockRoute.post(chat, () => undefined), foreign], request);
    expect(await answer?.json()).toEqual({ model: 'm-1' });
    expect(request.clones).toBe(1);
  });

  it('answers through msw all the same: the handlers made by mockRoute are msw handlers', async () => {
    const { getResponse } = await import('msw');
    const handler = mockRoute.delete(`${origin}/v1/responses/r1`, () => HttpResponse.json({ deleted: true }));
    const answer = await getResponse([handler], new Request(`${origin}/v1/responses/r1`, { method: 'DELETE' }));
    expect(await answer?.json()).toEqual({ deleted: true });
  });
});

describe('claimableHandlers', () => {
  const origin = 'https://api.example.test';
  const handlers = [
    http.post(`${origin}/v1/chat/completions`, () => undefined),
    http.get(`${origin}/v1/chat/completions`, () => undefined),
    http.post(/^https:\/\/api\.example\.test\/v1\/models\/[^/]+:generate$/, () => undefined),
    http.post(`${origin}/v1/models/:model/invoke`, () => undefined),
    http.all(`${origin}/v1/*`, () => undefined),
    http.post(
      ({ request }) => request.headers.has('x-pick'),
      () => undefined,
    ),
  ];
  const paths = ['/v1/chat/completions', '/v1/models/gemini-2.5:generate', '/v1/models/m/invoke', '/v2/x', '/v1/'];

  test("keeps, in order, exactly the handlers msw's own predicate lets claim the request, and any predicate function", () =>
    fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'GET', 'post', 'PUT'),
        fc.constantFrom(...paths),
        fc.constantFrom('', '?a=1'),
        async (method, path, query) => {
          const request = new Request(`${origin}${path}${query}`, { method });
          const claiming = [];
          for (const handler of handlers) {
            const parsedResult = await handler.parse({ request });
            if (typeof handler.info.path === 'function' || (await handler.predicate({ request, parsedResult })))
              claiming.push(handler);
          }
          expect(claimableHandlers(handlers, request)).toEqual(claiming);
        },
      ),
    ));
});
