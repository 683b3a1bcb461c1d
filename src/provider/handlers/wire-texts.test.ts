import { fc, test } from '@fast-check/vitest';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { answerText, jsonAnswer, requestJson, requestWithText } from './wire-texts.js';

const headersOf = (response: Response) => Object.fromEntries(response.headers.entries());
const aHeaders = fc.dictionary(
  fc.constantFrom('x-a', 'Content-Type', 'content-length', 'x-reasoning-replay-findings'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map((s) => s.trim() || 'v'),
);

describe('wire-texts', () => {
  test.prop([fc.jsonValue({ stringUnit: 'grapheme' }), fc.constantFrom(200, 400, 404, 429, 599), aHeaders])(
    'jsonAnswer answers what HttpResponse.json answers, and keeps the text its body holds',
    async (body, status, headers) => {
      const ours = jsonAnswer(body, { status, headers });
      const msws = HttpResponse.json(body as Record<string, unknown>, { status, headers });
      expect(ours.status).toBe(msws.status);
      expect(headersOf(ours)).toEqual(headersOf(msws));
      const text = answerText(ours);
      expect(await ours.text()).toBe(await msws.text());
      expect(text).toBe(JSON.stringify(body));
    },
  );

  test.prop([fc.jsonValue({ stringUnit: 'grapheme' })])(
    'requestJson reads what the body holds, kept or not',
    async (body) => {
      const init = { method: 'POST', body: JSON.stringify(body) };
      const kept = requestWithText('https://api.example.test/v1', init);
      const plain = new Request('https://api.example.test/v1', init);
      expect(await requestJson(kept)).toEqual(await requestJson(plain));
      // The body itself stays unread for whoever reads it next.
      expect(await kept.text()).toBe(init.body);
    },
  );

  test.prop([fc.jsonValue({ stringUnit: 'grapheme' }), fc.constantFrom('text', 'json', 'arrayBuffer', 'blob', 'body')])(
    'a request holding its text reads as fetch’s own does: each reader, a clone, the stream, and once only',
    async (value, reader) => {
      const init = {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-a': 'b' },
        body: JSON.stringify(value),
      };
      const kept = requestWithText('https://api.example.test/v1', init);
      const plain = new Request('https://api.example.test/v1', init);
      const read = async (r: Request): Promise<unknown> =>
        reader === 'body'
          ? new TextDecoder().decode(await new Response(r.body).arrayBuffer())
          : reader === 'arrayBuffer'
            ? [...new Uint8Array(await r.arrayBuffer())]
            : reader === 'blob'
              ? await (await r.blob()).text()
              : await r[reader]();
      // Looking at the stream is not reading it.
      expect([kept.body === null, kept.bodyUsed]).toEqual([plain.body === null, plain.bodyUsed]);
      const [keptClone, plainClone] = [kept.clone(), plain.clone()];
      expect([keptClone.method, headersOf(keptClone as unknown as Response)]).toEqual([
        plainClone.method,
        headersOf(plainClone as unknown as Response),
      ]);
      expect(await read(keptClone)).toEqual(await read(plainClone));
      expect(await read(kept)).toEqual(await read(plain));
      expect(kept.bodyUsed).toBe(plain.bodyUsed);
      if (reader !== 'body') {
        await expect(kept.text()).rejects.toThrow(TypeError);
        expect(() => kept.clone()).toThrow(TypeError);
      }
    },
  );

  it('keeps each request’s own text: two requests differing only in their body read apart', async () => {
    const a = requestWithText('https://api.example.test/v1', { method: 'POST', body: '{"model":"a"}' });
    const b = requestWithText('https://api.example.test/v1', { method: 'POST', body: '{"model":"b"}' });
    expect(await requestJson(a)).toEqual({ model: 'a' });
    expect(await requestJson(b)).toEqual({ model: 'b' });
  });

  it('keeps no text for an answer made elsewhere or one with no body', () => {
    expect(answerText(HttpResponse.json({ a: 1 }))).toBeUndefined();
    expect(answerText(jsonAnswer({ a: 1 }, { status: 204, headers: {} }))).toBeUndefined();
  });
});
