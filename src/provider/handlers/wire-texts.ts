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
 * cost more per request of a `check` than judging it. Only a request made with requestWithText and an answer msw-handlers.ts
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

/** `new Request(url, init)`; a body given as text is held as text (TextBodyRequest) and kept for requestText. */
export function requestWithText(url: string, init: RequestInit): Request {
  return typeof init.body === 'string' ? withText(url, init, init.body) : new Request(url, init);
}

/** The request's body text: the kept text, else read from a clone (handlers after it read the body too). */
export async function requestText(request: Request): Promise<string> {
  return textBodies.get(request)?.text ?? request.clone().text();
}

/** The text a request or answer holds as its body (requestWithText, textBodyResponse), or undefined (read the body). */
export const keptText = (holder: Request | Response): string | undefined => textBodies.get(holder)?.text;

/** The text of an answer made with textBodyResponse, or undefined (read the body). */
export const answerText = (response: Response): string | undefined => keptText(response);

/** An msw HttpResponse whose body is the given text, held as text (TextBodyResponse). */
export const textBodyResponse = (text: string, init: ResponseInit): Response => textResponse(text, init);
