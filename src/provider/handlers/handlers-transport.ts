import type { HttpHandler } from './msw-core.js';
import { answerInProcess } from './answer-in-process.js';
import { readResponse, requestInit, urlOf, within, type ScenarioTransport } from '../../shared/transport/transport.js';
import { UnhandledRequestError } from '../../shared/errors/unhandled-request-error.js';
import { answerText, requestWithText } from './wire-texts.js';

/** Handlers grouped by the URL origin every one of their patterns starts with (one provider spec's). */
export interface HandlerGroup {
  origin: string;
  handlers: readonly HttpHandler[];
}

/**
 * The handlers that could claim a URL, in their original order: msw matches a handler on the whole
 * URL, and each group's patterns start with its origin, so a group with another origin can never
 * claim the request. Handing msw only these keeps the answer the same and spares every other
 * handler's URL match and cookie parse on each request.
 */
export function handlersByOrigin(groups: readonly HandlerGroup[]): (url: string) => HttpHandler[] {
  const byOrigin = new Map<string, HttpHandler[]>();
  for (const group of groups) {
    const list = byOrigin.get(group.origin) ?? [];
    list.push(...group.handlers);
    byOrigin.set(group.origin, list);
  }
  return (url) => byOrigin.get(new URL(url).origin) ?? [];
}

/**
 * The same requests handed straight to the msw handlers (answerInProcess, as the real-world replay does): the same
 * handlers in the same order answer as they would behind fetch interception, without a fetch or a socket-like
 * interceptor per request, which cost more than the judging itself. A request no handler claims fails its call, as
 * `onUnhandledRequest: 'error'` does.
 * `handlers` is either the whole list or a lookup of the ones that could claim a URL (handlersByOrigin).
 */
export function handlersTransport(
  handlers: readonly HttpHandler[] | ((url: string) => readonly HttpHandler[]),
  timeoutMs?: number,
): ScenarioTransport {
  const candidates = typeof handlers === 'function' ? handlers : () => handlers;
  return (request, spec, meta) => {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const exchange = async () => {
      const url = urlOf(request, spec);
      const asked = requestWithText(url, requestInit(request, meta, signal));
      const response = await answerInProcess(candidates(url), asked);
      if (!response) throw new UnhandledRequestError(`no mock handler claims ${request.method} ${url}`);
      return readResponse(response, answerText(response));
    };
    return within(exchange(), signal);
  };
}
