import type { OutboundRequest } from '../wire/outbound-request.js';
import { CALL_HEADER, SCENARIO_HEADER } from '../findings/finding.js';
import type { ProviderSpec } from '../provider-specs/provider-spec.js';

/**
 * Transport: where one request of a scenario goes and how its answer comes back. Nothing here knows
 * what a request should hold; the default goes through global fetch, which msw intercepts.
 */
/** One provider answer as the transport hands it over: JSON when it parsed, raw text otherwise (SSE). */
export interface ExchangeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type TransportResponse = ExchangeResponse;

export type ScenarioTransport = (
  request: OutboundRequest,
  spec: ProviderSpec,
  meta: { scenario: string; call: number },
) => Promise<TransportResponse>;

/** An answer's status, headers and text in the transport shape: JSON when it parses, the raw text otherwise (SSE). */
export function transportResponse(status: number, headers: Record<string, string>, text: string): TransportResponse {
  let body: unknown = text;
  if (!(headers['content-type'] ?? '').includes('event-stream')) {
    try {
      body = JSON.parse(text);
    } catch {
      /* a text body stays text */
    }
  }
  return { status, headers, body };
}

/** Reads a fetch Response into the transport shape (transportResponse). */
export async function readResponse(response: Response): Promise<TransportResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return transportResponse(response.status, headers, await response.text());
}

/**
 * Settles with `work` or rejects with the signal's reason, whichever comes first. fetch's own signal
 * is not enough: a body served by msw keeps streaming after the signal fires (a real socket stops).
 */
export function within<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** What goes on the wire for one call: the method, the headers with the scenario and call named, the body's JSON. */
export const wireRequest = (
  request: OutboundRequest,
  meta: { scenario: string; call: number },
): { method: string; headers: Record<string, string>; body: string } => ({
  method: request.method,
  headers: { ...request.headers, [SCENARIO_HEADER]: meta.scenario, [CALL_HEADER]: String(meta.call) },
  body: JSON.stringify(request.body),
});

/**
 * Settles with `work`, or rejects after `ms` with the reason AbortSignal.timeout gives (a TimeoutError DOMException),
 * whichever comes first. One timer, cleared when the work settles: an in-process exchange has no fetch to abort, and a
 * timeout signal per exchange cost more than the exchange's answer.
 */
export function withinMs<T>(work: Promise<T>, ms: number | undefined): Promise<T> {
  if (ms === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      ms,
    );
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

export const requestInit = (
  request: OutboundRequest,
  meta: { scenario: string; call: number },
  signal?: AbortSignal,
): RequestInit => ({ ...wireRequest(request, meta), ...(signal ? { signal } : {}) });

export const urlOf = (request: OutboundRequest, spec: ProviderSpec) =>
  spec.endpoint.baseUrl.replace(/\/$/, '') + request.path;

async function sendOverFetch(
  request: OutboundRequest,
  spec: ProviderSpec,
  meta: { scenario: string; call: number },
  signal?: AbortSignal,
): Promise<TransportResponse> {
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
