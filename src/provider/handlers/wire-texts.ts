import { HttpResponse } from './msw-core.js';

/**
 * The exact text an in-process exchange puts on the wire, kept beside its Request or Response: the other side reads
 * the same characters from here instead of cloning the body (a stream tee) and draining a stream, which cost more per
 * request of a `check` than judging it. Only text this module saw go into the body is kept (a request the transport
 * made, an answer `jsonAnswer` made), so a reader gets what the body holds either way; a body from elsewhere (a socket
 * under `serve`, a test's own Request) is read from the stream as before.
 */
const requestTexts = new WeakMap<Request, string>();
const responseTexts = new WeakMap<Response, string>();

/** `new Request(url, init)`, its body's text kept for requestJson when the body is given as text. */
export function requestWithText(url: string, init: RequestInit): Request {
  const request = new Request(url, init);
  if (typeof init.body === 'string') requestTexts.set(request, init.body);
  return request;
}

/** The request's JSON body: the kept text parsed, else the body read from a clone (handlers after it read it too). */
export async function requestJson(request: Request): Promise<unknown> {
  const text = requestTexts.get(request);
  return text === undefined ? ((await request.clone().json()) as unknown) : (JSON.parse(text) as unknown);
}

/** The text of an answer `jsonAnswer` made, or undefined (read the body). */
export const answerText = (response: Response): string | undefined => responseTexts.get(response);

/** Statuses whose answer has no body (fetch's null body statuses, and 101 and 103): msw drops the body given. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

const hasHeader = (headers: Record<string, string>, name: string) =>
  Object.keys(headers).some((key) => key.toLowerCase() === name);

/**
 * What msw's `HttpResponse.json` answers (the JSON text; `content-type: application/json` unless one is given; the
 * text's UTF-8 length as `content-length` unless one is given), with the length counted by Buffer.byteLength rather
 * than through a Blob, and the text kept for answerText.
 */
export function jsonAnswer(body: unknown, init: { status: number; headers: Record<string, string> }): Response {
  const text = JSON.stringify(body) as string | undefined;
  // Nothing to keep for a body JSON cannot write, or a status that carries none: msw's own answer, as it was.
  if (text === undefined || NULL_BODY_STATUSES.has(init.status))
    return HttpResponse.json(body as Record<string, unknown>, init);
  const headers = { ...init.headers };
  if (!hasHeader(headers, 'content-type')) headers['content-type'] = 'application/json';
  if (!hasHeader(headers, 'content-length')) headers['content-length'] = String(Buffer.byteLength(text));
  const response = new HttpResponse(text, { status: init.status, headers });
  responseTexts.set(response, text);
  return response;
}
