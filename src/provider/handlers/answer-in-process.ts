import { getResponse, type HttpHandler } from './msw-core.js';
import { answerRoutes } from './answer-routes.js';
import { exchangeOfRequest, responseOfAnswer, routeOf } from './msw-handlers.js';
import type { MockRoute } from './mock-route.js';

/**
 * What msw handlers answer to a Request made in this process (`serve`'s msw path), as msw's
 * `getResponse` picks it. When every handler is a mock route's (mswHandler), the routes answer directly
 * (answerRoutes): msw's per-request work around each handler (a request clone kept for its logs, a cookie-jar lookup
 * with a public-suffix walk, an AbortController aborted with a DOMException) cost more than judging the request, and
 * a mock reads none of it. Any other handler in the list sends the request through `getResponse`, so its semantics
 * stay msw's.
 */
export async function answerInProcess(
  handlers: readonly HttpHandler[],
  request: Request,
): Promise<Response | undefined> {
  const routes = handlers.map(routeOf);
  if (!routes.every((route): route is MockRoute => route !== undefined)) return getResponse([...handlers], request);
  const answer = await answerRoutes(routes, await exchangeOfRequest(request, true));
  return answer && responseOfAnswer(answer);
}
