import {
  transportResponse,
  urlOf,
  withinMs,
  wireRequest,
  type ScenarioTransport,
  type TransportResponse,
} from '../../shared/transport/transport.js';
import { UnhandledRequestError } from '../../shared/errors/unhandled-request-error.js';
import { sseText } from '../answers/answer-stream.js';
import { answerRoutes } from './answer-routes.js';
import { mockExchange, wireHeaders, type MockAnswer } from './mock-exchange.js';
import type { MockRoute } from './mock-route.js';

/** Routes grouped by the URL origin every one of their patterns starts with (one provider spec's). */
export interface RouteGroup {
  origin: string;
  routes: readonly MockRoute[];
}

/**
 * The routes that could claim a URL, in their original order: each group's patterns start with its origin, so a group
 * with another origin can never claim the request, and only these are matched against it.
 */
export function routesByOrigin(groups: readonly RouteGroup[]): (url: string) => MockRoute[] {
  const byOrigin = new Map<string, MockRoute[]>();
  for (const group of groups) {
    const list = byOrigin.get(group.origin) ?? [];
    list.push(...group.routes);
    byOrigin.set(group.origin, list);
  }
  return (url) => byOrigin.get(new URL(url).origin) ?? [];
}

/** The text of the answer's body as a client reads it whole: stored events as their SSE text, no body as ''. */
export const mockAnswerText = (answer: MockAnswer): string =>
  answer.body === null ? '' : typeof answer.body === 'string' ? answer.body : sseText(answer.body.events);

/** The answer as the transport hands it over: headers as fetch reads them out, the body's text (transportResponse). */
export const transportAnswer = (answer: MockAnswer): TransportResponse =>
  transportResponse(answer.status, wireHeaders(answer.headers), mockAnswerText(answer));

/**
 * A scenario's requests answered by the mock routes in this process (answerRoutes): the same routes in the same order
 * answer as their msw handlers would behind fetch interception, with no fetch, no interceptor and no Request or
 * Response object per exchange, which cost more than judging the request. A request no route claims fails its call,
 * as msw's `onUnhandledRequest: 'error'` does. `routes` is the whole list or a lookup (routesByOrigin).
 */
export function routesTransport(
  routes: readonly MockRoute[] | ((url: string) => readonly MockRoute[]),
  timeoutMs?: number,
): ScenarioTransport {
  const candidates = typeof routes === 'function' ? routes : () => routes;
  return (request, spec, meta) => {
    const exchange = async () => {
      const url = urlOf(request, spec);
      const wire = wireRequest(request, meta);
      const answer = await answerRoutes(candidates(url), mockExchange(wire.method, url, wire.headers, wire.body));
      if (!answer) throw new UnhandledRequestError(`no mock handler claims ${request.method} ${url}`);
      return transportAnswer(answer);
    };
    return withinMs(exchange(), timeoutMs);
  };
}
