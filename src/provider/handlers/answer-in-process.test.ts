import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { answerInProcess } from './answer-in-process.js';
import { answerRoutes } from './answer-routes.js';
import { jsonMockAnswer, mockExchange, type MockAnswer } from './mock-exchange.js';
import { mockRoute } from './mock-route.js';
import { mswHandler, routeOf } from './msw-handlers.js';

const origin = 'https://api.example.test';
const chat = `${origin}/v1/chat/completions`;
const CHAT = /^https:\/\/api\.example\.test\/v1\/chat\/completions$/;
const ok = (value: unknown, status = 200): MockAnswer => jsonMockAnswer(value, { status, headers: {} });
const exchange = (url: string, method = 'POST', text = '{}') => mockExchange(method, url, {}, text);

/** A request that counts its clones: msw clones each request for its logs; answering from routes never does. */
function countingRequest(url: string, init: RequestInit) {
  const request = new Request(url, init);
  const counter = { clones: 0 };
  const clone = request.clone.bind(request);
  Object.defineProperty(request, 'clone', {
    value: () => {
      counter.clones++;
      return clone();
    },
  });
  return { request, counter };
}

describe('answerRoutes', () => {
  it('answers from the first claiming route; one that answers nothing falls through, in order', async () => {
    const order: string[] = [];
    const routes = [
      mockRoute.post(/^https:\/\/api\.example\.test\/v1\/other$/, () => ok({ wrong: true })),
      mockRoute.post(CHAT, () => void order.push('declines')),
      mockRoute.get(CHAT, () => ok({ wrong: 'method' })),
      mockRoute.post(/^https:\/\/api\.example\.test\/v1\/chat\/.*$/, (request) => {
        order.push('answers');
        return ok({ text: request.text, scenario: request.header('X-Scenario') }, 201);
      }),
      mockRoute.post(CHAT, () => ok({ wrong: 'too late' })),
    ];
    const asked = mockExchange('post', `${chat}?api-version=1`, { 'x-scenario': 's' }, '{"a":1}');
    const answer = await answerRoutes(routes, asked);
    expect([answer?.status, JSON.parse(answer?.body as string)]).toEqual([201, { text: '{"a":1}', scenario: 's' }]);
    expect(order).toEqual(['declines', 'answers']);
    expect(await answerRoutes(routes, exchange(`${origin}/v2/none`))).toBeUndefined();
  });

  it('lets a resolver’s error out', async () => {
    const failing = mockRoute.post(CHAT, () => {
      throw new TypeError('broken mock');
    });
    await expect(answerRoutes([failing], exchange(chat))).rejects.toThrow('broken mock');
  });
});

describe('answerInProcess (msw handlers asked in process)', () => {
  it('answers from the routes behind handlers made by mswHandler, without cloning the request', async () => {
    const handler = mswHandler(mockRoute.post(CHAT, (request) => ok(JSON.parse(request.text))));
    expect(routeOf(handler)).toBeDefined();
    const { request, counter } = countingRequest(chat, { method: 'POST', body: '{"a":1}' });
    const answer = await answerInProcess([handler], request);
    expect(await answer?.json()).toEqual({ a: 1 });
    expect(counter.clones).toBe(0);
  });

  it("sends the request through msw's getResponse when a handler is not a route's", async () => {
    // A plain msw handler may read path params (and cookies): only msw's own resolution gives them.
    const foreign = http.post(`${origin}/v1/models/:model/invoke`, ({ params }) => HttpResponse.json(params));
    expect(routeOf(foreign)).toBeUndefined();
    const { request, counter } = countingRequest(`${origin}/v1/models/m-1/invoke`, { method: 'POST', body: '{}' });
    const answer = await answerInProcess([mswHandler(mockRoute.post(CHAT, () => undefined)), foreign], request);
    expect(await answer?.json()).toEqual({ model: 'm-1' });
    expect(counter.clones).toBe(1);
  });

  it('a route’s handler answers behind msw as the route answers in process: status, headers, body, stream', async () => {
    const { getResponse } = await import('msw');
    const events = [{ event: 'delta', data: '{"a":1}' }, { data: '[DONE]' }];
    const routes = [
      mockRoute.delete(/^https:\/\/api\.example\.test\/v1\/responses\/r1$/, () => ok({ deleted: true })),
      mockRoute.post(CHAT, () => ({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream', 'x-b': ' v ' },
        body: { events, pace: 0 },
      })),
    ];
    const viaMsw = await getResponse(routes.map(mswHandler), new Request(chat, { method: 'POST', body: '{}' }));
    expect(viaMsw?.headers.get('content-type')).toBe('text/event-stream');
    expect(await viaMsw?.text()).toBe('event: delta\ndata: {"a":1}\n\ndata: [DONE]\n\n');
    const deleted = await getResponse(
      routes.map(mswHandler),
      new Request(`${origin}/v1/responses/r1`, { method: 'DELETE' }),
    );
    expect(await deleted?.json()).toEqual({ deleted: true });
  });
});
