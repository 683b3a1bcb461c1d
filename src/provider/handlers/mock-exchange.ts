import type { SseEvent } from '../../shared/sse/sse-event.js';

/**
 * One request as a provider mock reads it: no fetch objects. A `check`'s exchanges and the real-world replay build it
 * from the text they would put on the wire; behind msw (serve, interception) it is read off the Request
 * (msw-handlers.ts). Header names are matched without regard to case, as fetch's Headers match them.
 */
export interface MockExchange {
  method: string;
  url: string;
  header(name: string): string | null;
  /** The body's text ('' when there is none). */
  text: string;
}

/** What a mock answers: a status, its headers as written, and a body of text, of stored events, or none. */
export interface MockAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | { events: SseEvent[]; pace: number } | null;
}

/**
 * An exchange over the given text and headers (their names in any case). The URL is parsed and written back as fetch's
 * Request holds it (`new URL(url).href`), so a mock reads the same URL either way.
 */
export function mockExchange(method: string, url: string, headers: Record<string, string>, text: string): MockExchange {
  const byName = new Map(Object.entries(wireHeaders(headers)));
  return { method, url: new URL(url).href, text, header: (name) => byName.get(name.toLowerCase()) ?? null };
}

/** Statuses whose answer has no body (fetch's null body statuses, and 101 and 103): msw drops the body given. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const hasHeader = (headers: Record<string, string>, name: string) =>
  Object.keys(headers).some((key) => key.toLowerCase() === name);

/**
 * What msw's `HttpResponse.json` answers: the JSON text; `content-type: application/json` unless one is given; the
 * text's UTF-8 length as `content-length` unless one is given; no body on a null-body status.
 */
export function jsonMockAnswer(value: unknown, init: { status: number; headers: Record<string, string> }): MockAnswer {
  const text = (JSON.stringify(value) as string | undefined) ?? '';
  const headers = { ...init.headers };
  if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
  if (!hasHeader(headers, 'content-length')) headers['content-length'] = String(Buffer.byteLength(text));
  return { status: init.status, headers, body: NULL_BODY_STATUSES.has(init.status) ? null : text };
}

/** HTTP's whitespace (tab, LF, CR, space): what fetch strips from either end of a header value. */
const isHttpWhitespace = (code: number) => code === 9 || code === 10 || code === 13 || code === 32;

function trimHttpWhitespace(value: string): string {
  if (
    value.length === 0 ||
    (!isHttpWhitespace(value.charCodeAt(0)) && !isHttpWhitespace(value.charCodeAt(value.length - 1)))
  )
    return value;
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
}

/**
 * The headers as fetch's Headers reads them out: names in lower case, sorted, values trimmed, and values of one name
 * written in two cases joined with ", ".
 */
export function wireHeaders(headers: Record<string, string>): Record<string, string> {
  const joined = new Map<string, string>();
  for (const name of Object.keys(headers)) {
    const key = name.toLowerCase();
    const value = trimHttpWhitespace(headers[name]!);
    const before = joined.get(key);
    joined.set(key, before === undefined ? value : `${before}, ${value}`);
  }
  const names = [...joined.keys()].sort();
  const out: Record<string, string> = {};
  for (const name of names) out[name] = joined.get(name)!;
  return out;
}
