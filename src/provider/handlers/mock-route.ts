import type { MockAnswer, MockExchange } from './mock-exchange.js';

/** What a mock does with one request: answer it, or fall through (undefined) to the next route, as an msw resolver. */
export type MockResolver = (exchange: MockExchange) => MockAnswer | undefined | Promise<MockAnswer | undefined>;

/**
 * One endpoint of a provider mock: a method, a pattern on the URL without its query (as msw matches a RegExp path),
 * and its resolver. Plain data: `check` answers its requests from routes in process (answer-routes.ts) without
 * loading msw or making a fetch Request; msw-handlers.ts turns each into msw's own handler for `serve`, interception
 * and tests.
 */
export interface MockRoute {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  resolve: MockResolver;
}

const route =
  (method: MockRoute['method']) =>
  (pattern: RegExp, resolve: MockResolver): MockRoute => ({ method, pattern, resolve });

export const mockRoute = { get: route('GET'), post: route('POST'), delete: route('DELETE') };

/** The URL msw matches a path against (its getCleanUrl): the parsed URL's origin and path, no query, no fragment. */
export function cleanUrl(url: string): string {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

/** Whether the route claims a request: its method (any case) and its pattern on the clean URL (cleanUrl). */
export const routeClaims = (route: MockRoute, method: string, clean: string): boolean =>
  route.method === method.toUpperCase() && route.pattern.test(clean);
