import type { MockAnswer, MockExchange } from './mock-exchange.js';
import { cleanUrl, routeClaims, type MockRoute } from './mock-route.js';

/** The routes that claim the exchange (method, and pattern on the clean URL), in their order. */
export function claimingRoutes(
  routes: readonly MockRoute[],
  exchange: Pick<MockExchange, 'method' | 'url'>,
): MockRoute[] {
  const clean = cleanUrl(exchange.url);
  return routes.filter((route) => routeClaims(route, exchange.method, clean));
}

/**
 * What the mocks answer to one exchange, as msw's `getResponse` would pick it from their handlers: the first claiming
 * route whose resolver answers; one that answers nothing falls through to the next; undefined when none answers.
 * No fetch object is made: a `check`'s exchanges cost the judging and the answer, not the wrapping.
 */
export async function answerRoutes(
  routes: readonly MockRoute[],
  exchange: MockExchange,
): Promise<MockAnswer | undefined> {
  for (const route of claimingRoutes(routes, exchange)) {
    const answer = await route.resolve(exchange);
    if (answer) return answer;
  }
  return undefined;
}
