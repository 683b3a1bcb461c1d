import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { REDACTED, redactExchange, redactHeaders, redactSecretValues, redactUrl } from './redact.js';
import { sweepForSecrets } from './secret-patterns.js';

const KEY = 'sk-test-0123456789abcdefghijklmnop';

describe('redactHeaders', () => {
  it('drops credentials by header name, keeping the auth scheme', () => {
    const out = redactHeaders({
      Authorization: `Bearer ${KEY}`,
      'x-api-key': KEY,
      'X-Goog-Api-Key': 'AIza-whatever',
      'api-key': 'azure',
      cookie: 'a=b; theme=dark',
      'set-cookie': 'session=abc; HttpOnly; Expires=Wed, 21 Oct 2026 07:28:00 GMT, __cf_bm=xyz; Path=/',
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    });
    expect(out).toEqual({
      Authorization: `Bearer ${REDACTED}`,
      'x-api-key': REDACTED,
      'X-Goog-Api-Key': REDACTED,
      'api-key': REDACTED,
      cookie: `a=${REDACTED}; theme=${REDACTED}`,
      'set-cookie': `session=${REDACTED}, __cf_bm=${REDACTED}`,
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    });
  });

  it('redacts SigV4 headers, and X-Amz-Date only beside a signature', () => {
    const signed = redactHeaders({
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAZ7Q3R5T2W8Y4U6I0/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc123',
      'x-amz-date': '20260101T000000Z',
      'x-amz-security-token': 'FwoGZXIvYXdzE',
    });
    expect(signed).toEqual({
      authorization: `AWS4-HMAC-SHA256 ${REDACTED}`,
      'x-amz-date': REDACTED,
      'x-amz-security-token': REDACTED,
    });
    expect(redactHeaders({ 'x-amz-date': '20260101T000000Z' })).toEqual({ 'x-amz-date': '20260101T000000Z' });
  });
});

describe('redactUrl', () => {
  it('rewrites credential parameters and leaves the rest byte for byte', () => {
    expect(redactUrl('https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=AIzaSECRET')).toBe(
      `https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=${REDACTED}`,
    );
    expect(
      redactUrl(
        'https://h/p?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F1&X-Amz-Date=20260101T000000Z&X-Amz-Signature=ff',
      ),
    ).toBe(
      `https://h/p?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${REDACTED}&X-Amz-Date=${REDACTED}&X-Amz-Signature=${REDACTED}`,
    );
    expect(redactUrl('https://h/p?monkey=1&x-amz-date=2026')).toBe('https://h/p?monkey=1&x-amz-date=2026');
    expect(redactUrl('https://h/p')).toBe('https://h/p');
  });
});

describe('redactSecretValues', () => {
  it('replaces the key wherever it is: raw, percent-encoded, JSON-escaped, in keys', () => {
    const weird = 'k3y/with+"quote"';
    const value = { a: `x${weird}y`, b: [encodeURIComponent(weird)], c: JSON.stringify({ k: weird }), [weird]: 1 };
    const out = redactSecretValues(value, [{ name: 'ENV_KEY', value: weird }]);
    expect(JSON.stringify(out)).not.toContain('quote');
    expect(out.a).toBe('x[redacted-by-recorder:ENV_KEY]y');
  });

  test('no planted secret value survives anywhere in a JSON value', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }),
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }),
        (secret, noise) => {
          const value = {
            headers: { h: `pre${secret}` },
            body: { messages: noise.map((n) => ({ content: n + secret + n })) },
            events: [{ data: secret }],
          };
          const out = redactSecretValues(value, [{ name: 'K', value: secret }]);
          const strings: string[] = [];
          const collect = (v: unknown): void => {
            if (typeof v === 'string') strings.push(v);
            else if (Array.isArray(v)) v.forEach(collect);
            else if (typeof v === 'object' && v !== null)
              Object.entries(v).forEach(([k, x]) => (strings.push(k), collect(x)));
          };
          collect(out);
          expect(strings.filter((s) => s.includes(secret))).toEqual([]);
        },
      ),
    );
  });
});

describe('redactExchange', () => {
  it('leaves signatures and encrypted reasoning verbatim while scrubbing the key', () => {
    const signature = 'EqQBCkgIARABGAIiQL0v+Yt4Jm0pN2x9/ZX7z1u5ZkB3Gm3O8qvB2o7Yd1Yk5mQd0AIzaQ1xL0Yw==';
    // OpenRouter relays Anthropic signatures as base64 JSON ("eyJ..."), and streams encrypted text as "[REDACTED]".
    const relayed = 'eyJ2IjoxLCJzIjoiQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVoiLCJrIjoiYW50aHJvcGljIn0=';
    const exchange = {
      request: {
        method: 'POST',
        url: `https://h/v1/chat?key=${KEY}`,
        headers: { authorization: `Bearer ${KEY}` },
        body: { messages: [{ role: 'user', content: `my key is ${KEY}` }] },
      },
      response: {
        status: 200,
        headers: { 'set-cookie': 'sid=1', 'x-echo': KEY },
        stream: {
          events: [
            {
              data: JSON.stringify({
                reasoning_details: [
                  { type: 'reasoning.encrypted', data: signature },
                  { type: 'reasoning.text', text: '[REDACTED]', signature: relayed },
                ],
                leak: KEY,
              }),
              atMs: 0,
            },
          ],
        },
      },
    };
    const out = redactExchange(exchange, [{ name: 'TEST_KEY', value: KEY }]);
    const text = JSON.stringify(out);
    expect(text).not.toContain(KEY);
    expect(text).toContain(signature);
    expect(text).toContain(relayed);
    expect(text).toContain('"text\\":\\"[REDACTED]\\"');
    expect(sweepForSecrets(out)).toEqual([]);
    expect(out.request?.url).toBe(`https://h/v1/chat?key=${REDACTED}`);
    // The input is not edited: callers may still need what was sent.
    expect(exchange.request.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
