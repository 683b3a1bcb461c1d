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

// Typed as a plain class so the readers can be methods: the DOM types declare Response's as properties.
const ResponseBase = HttpResponse as unknown as new (body: null, init: ResponseInit) => object;

/**
 * An answer of the mocks whose body is its text (TextBody), an msw HttpResponse in all else: `serve` and the msw
 * handlers hand it on without undici building a body stream for it, and fetch's readers answer from the text.
 */
class TextBodyResponse extends ResponseBase {
  readonly #body: TextBody;
  readonly #init: ResponseInit;
  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#body = new TextBody(text);
    this.#init = init;
  }
  get body(): ReadableStream<Uint8Array> {
    return this.#body.stream();
  }
  get bodyUsed(): boolean {
    return this.#body.used;
  }
  text(): Promise<string> {
    return this.#body.read();
  }
  json(): Promise<unknown> {
    return this.#body.read().then((t) => JSON.parse(t) as unknown);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body.read().then((t) => new TextEncoder().encode(t).buffer);
  }
  blob(): Promise<Blob> {
    return this.#body.read().then((t) => new Blob([t]));
  }
  clone(): Response {
    return textBodyResponse(this.#body.forClone('Response'), this.#init);
  }
}

/** An msw HttpResponse whose body is the given text, held as text (TextBodyResponse). */
export const textBodyResponse = (text: string, init: ResponseInit): Response =>
  new TextBodyResponse(text, init) as unknown as Response;
