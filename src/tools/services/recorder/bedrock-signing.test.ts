import { describe, expect, it } from 'vitest';
import { awsCredentialsFromEnv, sigV4Fetch } from './aws-sigv4.js';
import { bedrockSigning } from './bedrock-signing.js';
import { fetchWithDeadline } from './deadline-fetch.js';

const ENV = {
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

describe('Bedrock credentials', () => {
  it('reads the AWS variables, the region from AWS_REGION or the bedrock-runtime host', () => {
    expect(awsCredentialsFromEnv({ ...ENV, AWS_REGION: 'eu-west-1' })?.region).toBe('eu-west-1');
    expect(awsCredentialsFromEnv(ENV, 'bedrock-runtime.us-west-2.amazonaws.com')?.region).toBe('us-west-2');
    expect(awsCredentialsFromEnv(ENV, '127.0.0.1:1')).toBeUndefined();
    expect(awsCredentialsFromEnv({ AWS_ACCESS_KEY_ID: 'x', AWS_REGION: 'us-east-1' })).toBeUndefined();
  });

  it('uses a Bedrock API key when there is one, SigV4 otherwise, and says what to set when neither', () => {
    expect(bedrockSigning('bedrock-converse', 'bedrock-key', 'h', ENV)).toBeUndefined();
    expect(bedrockSigning('openai-chat', undefined, 'h', ENV)).toBeUndefined();
    expect(
      bedrockSigning('bedrock-converse', undefined, 'bedrock-runtime.us-east-1.amazonaws.com', ENV)?.secrets.map(
        (s) => s.name,
      ),
    ).toEqual(['AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID']);
    expect(() => bedrockSigning('bedrock-converse', undefined, 'h', {})).toThrow(
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
  });

  it('signs with the AWS signer over host, date, body and session token', async () => {
    const seen: Headers[] = [];
    const inner = (async (_url: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return new Response('{}');
    }) as typeof fetch;
    const creds = { ...awsCredentialsFromEnv({ ...ENV, AWS_REGION: 'us-east-1', AWS_SESSION_TOKEN: 'token-value' })! };
    const send = sigV4Fetch(creds, inner, () => new Date(Date.UTC(2025, 0, 2, 3, 4, 5)));
    await send('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    await send('https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":2}',
    });
    const auth = seen.map((h) => h.get('authorization')!);
    expect(auth[0]).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/20250102\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(auth[0]).not.toBe(auth[1]); // the body is part of what is signed
    expect(seen[0]!.get('x-amz-date')).toBe('20250102T030405Z');
    expect(seen[0]!.get('x-amz-security-token')).toBe('token-value');
  });
});

describe('fetchWithDeadline', () => {
  it('ends a call whose answer never comes, and one whose body stalls, with the --timeout message', async () => {
    const never = ((_u: unknown, init?: RequestInit) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      )) as typeof fetch;
    await expect(fetchWithDeadline(30, never)('http://127.0.0.1:1/')).rejects.toThrow(
      /no complete answer within 0.03s \(--timeout\)/,
    );
    const stalls = (async (_u: unknown, init?: RequestInit) =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('data: 1\n\n'));
            init?.signal?.addEventListener('abort', () => c.error(init.signal!.reason));
          },
        }),
      )) as typeof fetch;
    const response = await fetchWithDeadline(30, stalls)('http://127.0.0.1:1/');
    await expect(response.text()).rejects.toThrow(/--timeout/);
  });

  it('leaves a prompt answer alone', async () => {
    const quick = (async () => new Response('ok')) as typeof fetch;
    expect(await (await fetchWithDeadline(1000, quick)('http://127.0.0.1:1/')).text()).toBe('ok');
  });
});
