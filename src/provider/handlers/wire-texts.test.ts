import fc from 'fast-check';
import { HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { jsonMockAnswer } from './mock-exchange.js';
import { responseOfAnswer } from './msw-handlers.js';
import { BodyUsedError } from '../../shared/errors/body-used-error.js';

/** A mock's JSON answer as msw handlers hand it over. */
const jsonAnswer = (body: unknown, init: { status: number; headers: Record<string, string> }) =>
  responseOfAnswer(jsonMockAnswer(body, init));
const headersOf = (response: Response) => Object.fromEntries(response.headers.entries());
const aHeaders = fc.dictionary(
  fc.constantFrom('x-a', 'Content-Type', 'content-length', 'x-reasoning-replay-findings'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map((s) => s.trim() || 'v'),
);

describe('wire-texts', () => {
  test('a JSON answer answers what HttpResponse.json answers: status, headers, text', () =>
    fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ stringUnit: 'grapheme' }),
        fc.constantFrom(200, 204, 400, 404, 429, 599),
        aHeaders,
        async (body, status, headers) => {
          const ours = jsonAnswer(body, { status, headers });
          const msws = HttpResponse.json(body as Record<string, unknown>, { status, headers });
          expect(ours.status).toBe(msws.status);
          expect(headersOf(ours)).toEqual(headersOf(msws));
          expect(await ours.text()).toBe(await msws.text());
        },
      ),
    ));

  const READERS = ['text', 'json', 'arrayBuffer', 'blob', 'body'] as const;
  /** The body as one reader gets it: text, parsed JSON, bytes, a blob's text, or the stream's bytes decoded. */
  const readAs = async (r: Response, reader: (typeof READERS)[number]): Promise<unknown> =>
    reader === 'body'
      ? new TextDecoder().decode(await new Response(r.body).arrayBuffer())
      : reader === 'arrayBuffer'
        ? [...new Uint8Array(await r.arrayBuffer())]
        : reader === 'blob'
          ? await (await r.blob()).text()
          : await r[reader]();

  /** Reads `kept` and `plain` alike, clones first, and checks each step gives the same, once only. */
  async function readsAlike(kept: Response, plain: Response, reader: (typeof READERS)[number]) {
    // Looking at the stream is not reading it.
    expect([kept.body === null, kept.bodyUsed]).toEqual([plain.body === null, plain.bodyUsed]);
    const [keptClone, plainClone] = [kept.clone(), plain.clone()];
    expect(headersOf(keptClone)).toEqual(headersOf(plainClone));
    expect(await readAs(keptClone, reader)).toEqual(await readAs(plainClone, reader));
    expect(await readAs(kept, reader)).toEqual(await readAs(plain, reader));
    expect(kept.bodyUsed).toBe(plain.bodyUsed);
    if (reader !== 'body') {
      // Refused as fetch refuses (a TypeError there, the project's named error here).
      await expect(plain.text()).rejects.toThrow(TypeError);
      await expect(kept.text()).rejects.toThrow(BodyUsedError);
      expect(() => plain.clone()).toThrow(TypeError);
      expect(() => kept.clone()).toThrow(BodyUsedError);
    }
  }

  test('an answer holding its text reads as msw’s HttpResponse.json does: each reader, a clone, the stream, once only', () =>
    fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ stringUnit: 'grapheme' }),
        fc.constantFrom(200, 400, 429, 599),
        fc.constantFrom(...READERS),
        async (value, status, reader) => {
          const kept = jsonAnswer(value, { status, headers: { 'x-a': 'b' } });
          const plain = HttpResponse.json(value as Record<string, unknown>, { status, headers: { 'x-a': 'b' } });
          expect([kept.clone().status, kept.clone() instanceof HttpResponse]).toEqual([status, true]);
          await readsAlike(kept, plain, reader);
        },
      ),
    ));
});
