import fc from 'fast-check';
import { HttpResponse } from 'msw';
import { describe, expect, it, test } from 'vitest';
import { answerText, jsonAnswer, requestJson, requestWithText } from './wire-texts.js';

const headersOf = (response: Response) => Object.fromEntries(response.headers.entries());
const aHeaders = fc.dictionary(
  fc.constantFrom('x-a', 'Content-Type', 'content-length', 'x-reasoning-replay-findings'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).map((s) => s.trim() || 'v'),
);

describe('wire-texts', () => {
  test('jsonAnswer answers what HttpResponse.json answers, and keeps the text its body holds', () =>
    fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ stringUnit: 'grapheme' }),
        fc.constantFrom(200, 400, 404, 429, 599),
        aHeaders,
        async (body, status, headers) => {
          const ours = jsonAnswer(body, { status, headers });
          const msws = HttpResponse.json(body as Record<string, unknown>, { status, headers });
          expect(ours.status).toBe(msws.status);
          expect(headersOf(ours)).toEqual(headersOf(msws));
          const text = answerText(ours);
          expect(await ours.text()).toBe(await msws.text());
          expect(text).toBe(JSON.stringify(body));
        },
      ),
    ));

  test('requestJson reads what the body holds, kept or not', () =>
    fc.assert(
      fc.asyncProperty(fc.jsonValue({ stringUnit: 'grapheme' }), async (body) => {
        const init = { method: 'POST', body: JSON.stringify(body) };
        const kept = requestWithText('https://api.example.test/v1', init);
        const plain = new Request('https://api.example.test/v1', init);
        expect(await requestJson(kept)).toEqual(await requestJson(plain));
        // The body itself stays unread for whoever reads it next.
        expect(await kept.text()).toBe(init.body);
      }),
    ));

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
