import { getResponse, type HttpHandler } from 'msw';
import type { OutboundRequest } from '../wire/outbound-request.js';
import { CALL_HEADER, SCENARIO_HEADER } from '../findings/finding.js';
import type { ProviderSpec } from '../provider-specs/provider-spec.js';
import type { ExchangeResponse } from '../../judge/engine-under-test.js';

/**
 * Transport: where one request of a scenario goes and how its answer comes back. Nothing here knows
 * what a request should hold; the default goes through global fetch, which msw intercepts.
 */
export type TransportResponse = ExchangeResponse;

export type ScenarioTransport = (request: OutboundRequest, spec: ProviderSpec, meta: { scenario: string; call: number }) => Promise<TransportResponse>;

/** Reads a fetch Response into the transport shape: JSON when it parses, the raw text otherwise (SSE). */
export async function readResponse(response: Response): Promise<TransportResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const text = await response.text();
  let body: unknown = text;
  if (!(headers['content-type'] ?? '').includes('event-stream')) {
    try {
      body = JSON.parse(text);
    } catch {
      /* a text body stays text */
    }
  }
  return { status: response.status, headers, body };
}

/**
 * Settles with `work` or rejects with the signal's reason, whichever comes first. fetch's own signal
 * is not enough: a body served by msw keeps streaming after the signal fires (a real socket stops).
 */
function within<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const requestInit = (request: OutboundRequest, meta: { scenario: string; call: number }, signal?: AbortSignal): RequestInit => ({
  method: request.method,
  headers: { ...request.headers, [SCENARIO_HEADER]: meta.scenario, [CALL_HEADER]: String(meta.call) },
  body: JSON.stringify(request.body),
  ...(signal ? { signal } : {}),
});

const urlOf = (request: OutboundRequest, spec: ProviderSpec) => spec.endpoint.baseUrl.replace(/\/$/, '') + request.path;

async function sendOverFetch(request: OutboundRequest, spec: ProviderSpec, meta: { scenario: string; call: number }, signal?: AbortSignal): Promise<TransportResponse> {
  const exchange = async () => {
    const response = await fetch(urlOf(request, spec), requestInit(request, meta, signal));
    return readResponse(response);
  };
  return within(exchange(), signal);
}

export const fetchTransport: ScenarioTransport = (request, spec, meta) => sendOverFetch(request, spec, meta);

/**
 * fetchTransport with a deadline on the whole exchange, body included: a provider that stalls
 * mid-stream fails that call (reported as "could not be sent") instead of hanging the run.
 */
export function fetchTransportWithin(timeoutMs: number): ScenarioTransport {
  return (request, spec, meta) => sendOverFetch(request, spec, meta, AbortSignal.timeout(timeoutMs));
}

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
 * The same requests handed straight to msw handlers (msw `getResponse`, as `serve` and the real-world
 * replay do): the same handlers in the same order answer as they would behind fetch interception,
 * without a fetch, a socket-like interceptor or a cookie jar per request, which cost more than the
 * judging itself. A request no handler claims fails its call, as `onUnhandledRequest: 'error'` does.
 * `handlers` is either the whole list or a lookup of the ones that could claim a URL (handlersByOrigin).
 */
export function handlersTransport(handlers: readonly HttpHandler[] | ((url: string) => readonly HttpHandler[]), timeoutMs?: number): ScenarioTransport {
  const candidates = typeof handlers === 'function' ? handlers : () => handlers;
  return (request, spec, meta) => {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const exchange = async () => {
      const url = urlOf(request, spec);
      const response = await getResponse([...candidates(url)], new Request(url, requestInit(request, meta, signal)));
      if (!response) throw new Error(`no mock handler claims ${request.method} ${url}`);
      return readResponse(response);
    };
    return within(exchange(), signal);
  };
}
