import { getResponse, matchRequestUrl, type HttpHandler } from './msw-core.js';
import { answerRoutes } from './answer-routes.js';
import { exchangeOfRequest, responseOfAnswer, routeOf } from './msw-handlers.js';
import type { MockRoute } from './mock-route.js';

/**
 * The handlers whose method and URL match the request, in their order: msw lets no other claim it (an HttpHandler's
 * predicate is exactly these two, with msw's own URL matcher). A handler matching on a function of the request stays a
 * candidate.
 */
export function claimableHandlers(handlers: readonly HttpHandler[], request: Request): HttpHandler[] {
  let url: URL | undefined;
  return handlers.filter(({ info: { method, path } }) => {
    if (typeof path === 'function') return true;
    const methodMatches =
      method instanceof RegExp ? method.test(request.method) : method.toLowerCase() === request.method.toLowerCase();
    return methodMatches && matchRequestUrl((url ??= new URL(request.url)), path).matches;
  });
}

/**
 * What msw handlers answer to a Request made in this process (`serve`'s msw path, `real-world --case`), as msw's
 * `getResponse` picks it. When every handler is a mock route's (mswHandler), the routes answer directly
 * (answerRoutes): msw's per-request work around each handler (a request clone kept for its logs, a cookie-jar lookup
 * with a public-suffix walk, an AbortController aborted with a DOMException) cost more than judging the request, and
 * a mock reads none of it. Any other handler in the list sends the request through `getResponse` (only the handlers
 * that can claim it, sparing the others' cookie parse), so its semantics stay msw's.
 */
export async function answerInProcess(
  handlers: readonly HttpHandler[],
  request: Request,
): Promise<Response | undefined> {
  const routes = handlers.map(routeOf);
  if (!routes.every((route): route is MockRoute => route !== undefined))
    return getResponse(claimableHandlers(handlers, request), request);
  const answer = await answerRoutes(routes, await exchangeOfRequest(request, true));
  return answer && responseOfAnswer(answer);
}
