import { http, type HttpHandler } from './msw-core.js';

/**
 * What a mock's handler does with a request: every mock reads the request alone (no path params, no cookies), and
 * answers or falls through (undefined) to the next handler, as an msw resolver does.
 */
export type MockResolver = (info: { request: Request }) => Response | undefined | Promise<Response | undefined>;

/** The resolver each handler made here answers with: answerInProcess calls it without msw's per-request work. */
const resolvers = new WeakMap<HttpHandler, MockResolver>();

const route =
  (method: 'get' | 'post' | 'delete') =>
  (predicate: string | RegExp, resolve: MockResolver): HttpHandler => {
    const handler = http[method](predicate, ({ request }) => resolve({ request }));
    resolvers.set(handler, resolve);
    return handler;
  };

/**
 * msw's `http.get`, `http.post` and `http.delete` for the provider mocks: the handler is msw's own (interception,
 * `getResponse` and `serve` use it unchanged), and its resolver is kept so an in-process exchange can call it
 * directly (answer-in-process.ts).
 */
export const mockRoute = { get: route('get'), post: route('post'), delete: route('delete') };

/** The resolver of a handler made by mockRoute; undefined for any other handler (a test's, a user's). */
export const mockResolver = (handler: HttpHandler): MockResolver | undefined => resolvers.get(handler);
