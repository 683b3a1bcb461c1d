import { HttpResponse } from './msw-core.js';
import { BodyUsedError } from '../../shared/errors/body-used-error.js';

/**
 * A body held as its text rather than a stream, read as fetch's body is read: once (`bodyUsed`), by `text`, `json`,
 * `arrayBuffer` or `blob`, or through `body`, a stream made on first look and pulled on a read only (so looking
 * disturbs nothing). Building the stream (undici's body extraction, a transferable ReadableStream) and teeing it
 * for msw's per-request clone cost more of a `check` than judging the request.
 */
class TextBody {
  #used = false;
  #stream: ReadableStream<Uint8Array> | undefined;
  constructor(readonly text: string) {}
  get used(): boolean {
    return this.#used;
  }
  stream(): ReadableStream<Uint8Array> {
    return (this.#stream ??= new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          this.#used = true;
          controller.enqueue(new TextEncoder().encode(this.text));
          controller.close();
        },
      },
      { highWaterMark: 0 },
    ));
  }
  read(): Promise<string> {
    return Promise.resolve().then(() => {
      if (this.#used) throw new BodyUsedError('Body is unusable: Body has already been read');
      this.#used = true;
      return this.text;
    });
  }
  /** The text for a clone, which a read body cannot give. */
  forClone(what: string): string {
    if (this.#used) throw new BodyUsedError(`${what}.clone: Body has already been consumed.`);
    return this.text;
  }
}

/**
 * The exact text an in-process exchange puts on the wire, kept as the body of its Request or Response: the other
 * side reads the same characters from here instead of cloning the body (a stream tee) and draining a stream, which
 * cost more per request of a `check` than judging it. Only a request the transport made and an answer `jsonAnswer`
 * made hold one; a body from elsewhere (a socket under `serve`, a test's own Request) is read from the stream.
 */
const textBodies = new WeakMap<object, TextBody>();
const bodyOf = (holder: object): TextBody => textBodies.get(holder)!;

/** fetch's body readers over a TextBody: the same for a request and an answer, installed on both below. */
class TextBodyReaders {
  get body(): ReadableStream<Uint8Array> {
    return bodyOf(this).stream();
  }
  get bodyUsed(): boolean {
    return bodyOf(this).used;
  }
  text(): Promise<string> {
    return bodyOf(this).read();
  }
  json(): Promise<unknown> {
    return bodyOf(this)
      .read()
      .then((t) => JSON.parse(t) as unknown);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return bodyOf(this)
      .read()
      .then((t) => new TextEncoder().encode(t).buffer);
  }
  blob(): Promise<Blob> {
    return bodyOf(this)
      .read()
      .then((t) => new Blob([t]));
  }
}
const { constructor: _ownConstructor, ...TEXT_READERS } = Object.getOwnPropertyDescriptors(TextBodyReaders.prototype);

// Typed as plain classes so the readers can be methods: the DOM types declare Request's and Response's as properties.
const RequestBase = Request as unknown as new (input: string | Request, init: RequestInit) => object;
const ResponseBase = HttpResponse as unknown as new (body: null, init: ResponseInit) => object;

/** A request of an in-process exchange whose body is its text (TextBody); a clone is another. */
class TextBodyRequest extends RequestBase {
  constructor(input: string | Request, init: RequestInit, text: string) {
    super(input, { ...init, body: null });
    textBodies.set(this, new TextBody(text));
  }
  clone(): Request {
    return withText(this as unknown as Request, {}, bodyOf(this).forClone('Request'));
  }
}

/** An answer of the mocks whose body is its JSON text (TextBody), an msw HttpResponse in all else. */
class TextBodyResponse extends ResponseBase {
  readonly #init: ResponseInit;
  constructor(text: string, init: ResponseInit) {
    super(null, init);
    textBodies.set(this, new TextBody(text));
    this.#init = init;
  }
  clone(): Response {
    return textResponse(bodyOf(this).forClone('Response'), this.#init);
  }
}

Object.defineProperties(TextBodyRequest.prototype, TEXT_READERS);
Object.defineProperties(TextBodyResponse.prototype, TEXT_READERS);

const withText = (input: string | Request, init: RequestInit, text: string): Request =>
  new TextBodyRequest(input, init, text) as unknown as Request;

const textResponse = (text: string, init: ResponseInit): Response =>
  new TextBodyResponse(text, init) as unknown as Response;

/** `new Request(url, init)`; a body given as text is held as text (TextBodyRequest) and kept for requestJson. */
export function requestWithText(url: string, init: RequestInit): Request {
  return typeof init.body === 'string' ? withText(url, init, init.body) : new Request(url, init);
}

/** The request's JSON body: the kept text parsed, else the body read from a clone (handlers after it read it too). */
export async function requestJson(request: Request): Promise<unknown> {
  const text = textBodies.get(request)?.text;
  return text === undefined ? ((await request.clone().json()) as unknown) : (JSON.parse(text) as unknown);
}

/** The text of an answer `jsonAnswer` made, or undefined (read the body). */
export const answerText = (response: Response): string | undefined => textBodies.get(response)?.text;

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
  return textResponse(text, { status: init.status, headers });
}
