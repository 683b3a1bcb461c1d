import { getResponse, matchRequestUrl, type HttpHandler } from './msw-core.js';
import { mockResolver, type MockResolver } from './mock-route.js';

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
 * What the handlers answer to a request made in this process (a `check`'s exchange, a real-world case): the first
 * claiming handler whose resolver answers, as msw's `getResponse` picks it. When every claiming handler is a mock's
 * own (mockRoute), its resolver is called directly: msw's per-request work around it (a request clone kept for
 * logging, a cookie-jar lookup with a public-suffix walk, an AbortController aborted with a DOMException after each
 * handler) cost more of a `check` than judging the request, and a mock reads none of it. Any other handler among them
 * sends the request through `getResponse`, so its semantics stay msw's.
 */
export async function answerInProcess(
  handlers: readonly HttpHandler[],
  request: Request,
): Promise<Response | undefined> {
  const claiming = claimableHandlers(handlers, request);
  const own = claiming.map(mockResolver);
  if (!own.every((resolve): resolve is MockResolver => resolve !== undefined)) return getResponse(claiming, request);
  for (const resolve of own) {
    const answer = await resolveOrThrown(resolve, request);
    if (answer) return answer;
  }
  return undefined;
}

/** msw takes a Response a resolver throws as its answer (`throw HttpResponse.json(...)`); anything else propagates. */
async function resolveOrThrown(resolve: MockResolver, request: Request): Promise<Response | undefined> {
  try {
    return await resolve({ request });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
