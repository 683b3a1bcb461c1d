import { http, HttpResponse, type HttpHandler } from './msw-core.js';
import { sseBody } from '../answers/answer-stream.js';
import { NULL_BODY_STATUSES, type MockAnswer, type MockExchange } from './mock-exchange.js';
import type { MockRoute } from './mock-route.js';
import { textBodyResponse } from './wire-texts.js';

/** The route each handler made here answers with: answerInProcess answers from it without msw's per-request work. */
const routes = new WeakMap<HttpHandler, MockRoute>();

/** The route of a handler made by mswHandler; undefined for any other handler (a test's, a user's). */
export const routeOf = (handler: HttpHandler): MockRoute | undefined => routes.get(handler);

const METHODS = { GET: http.get, POST: http.post, DELETE: http.delete } as const;

/**
 * A mock route as msw's own handler: the same pattern (msw matches a RegExp path on the URL without its query, as
 * routeClaims does), the request read into a MockExchange (its body from a clone, so a handler after it reads it too),
 * and the answer made a Response (responseOfAnswer). `serve`, fetch interception and tests use these.
 */
export function mswHandler(route: MockRoute): HttpHandler {
  const handler = METHODS[route.method](route.pattern, async ({ request }) => {
    const answer = await route.resolve(await exchangeOfRequest(request));
    return answer && responseOfAnswer(answer);
  });
  routes.set(handler, route);
  return handler;
}

/**
 * The exchange a fetch Request stands for: its method, URL, headers and body text. The body is read from a clone
 * (a handler after this one reads it too) unless `consume` says nothing else will read it.
 */
export async function exchangeOfRequest(request: Request, consume = false): Promise<MockExchange> {
  const text = await (consume ? request : request.clone()).text();
  return { method: request.method, url: request.url, text, header: (name) => request.headers.get(name) };
}

/**
 * The answer as msw's HttpResponse: a text body held as text (so `serve` and the readers take it without a stream),
 * stored events as an SSE stream at the answer's pace, no body on a null-body status.
 */
export function responseOfAnswer(answer: MockAnswer): Response {
  const init = { status: answer.status, headers: answer.headers };
  if (answer.body === null || NULL_BODY_STATUSES.has(answer.status)) return new HttpResponse(null, init);
  if (typeof answer.body === 'string') return textBodyResponse(answer.body, init);
  return new HttpResponse(sseBody(answer.body.events, answer.body.pace), init);
}
