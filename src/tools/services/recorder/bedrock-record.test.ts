import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterEach, describe, expect, it } from 'vitest';
import { checkFixture } from '../../../provider/fixtures/fixture-store.js';
import { specsDir } from '../../../shared/project-root.js';
import { decodeEventStream, encodeBedrockEvent } from './bedrock-event-stream.js';
import { runCli } from '../../../../test/helpers/run-cli.test-helper.js';

// Made-up AWS credentials shaped like real ones.
const CREDS = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLEsessionTOKENvalue0123456789',
};
const REGION = 'us-east-1';
const SIG = ['EqQBCkgIExampleSignatureCall0==', 'EqQBCkgIExampleSignatureCall1=='];

/**
 * The two answers of tool-call-with-reasoning as ConverseStream frames: signed reasoning, then a tool call / the text.
 */
function answer(call: number): Uint8Array[] {
  const reasoning = [
    encodeBedrockEvent('messageStart', { role: 'assistant' }),
    encodeBedrockEvent('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { reasoningContent: { text: call === 0 ? 'Need the weather; ' : 'Light rain, ' } },
    }),
    encodeBedrockEvent('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { reasoningContent: { text: call === 0 ? 'call get_weather.' : 'so yes.' } },
    }),
    encodeBedrockEvent('contentBlockDelta', {
      contentBlockIndex: 0,
      delta: { reasoningContent: { signature: SIG[call] } },
    }),
    encodeBedrockEvent('contentBlockStop', { contentBlockIndex: 0 }),
  ];
  const rest =
    call === 0
      ? [
          encodeBedrockEvent('contentBlockStart', {
            contentBlockIndex: 1,
            start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } },
          }),
          encodeBedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } }),
          encodeBedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '"Lisbon"}' } } }),
          encodeBedrockEvent('contentBlockStop', { contentBlockIndex: 1 }),
          encodeBedrockEvent('messageStop', { stopReason: 'tool_use' }),
        ]
      : [
          encodeBedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Yes: light rain ' } }),
          encodeBedrockEvent('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'is expected.' } }),
          encodeBedrockEvent('contentBlockStop', { contentBlockIndex: 1 }),
          encodeBedrockEvent('messageStop', { stopReason: 'end_turn' }),
        ];
  return [
    ...reasoning,
    ...rest,
    encodeBedrockEvent('metadata', {
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      metrics: { latencyMs: 100 },
    }),
  ];
}

/** Checks a request's SigV4 signature the way AWS does: re-signs what it received and compares. */
async function signatureValid(req: IncomingMessage, body: string): Promise<boolean> {
  const auth = String(req.headers.authorization ?? '');
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? [];
  const date = String(req.headers['x-amz-date'] ?? '');
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!m || signedHeaders.length === 0) return false;
  const signingDate = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  const url = new URL(req.url!, `http://${req.headers.host}`);
  const headers = Object.fromEntries(signedHeaders.map((h) => [h, String(req.headers[h])]));
  const signer = new SignatureV4({ service: 'bedrock', region: REGION, sha256: Sha256, credentials: CREDS });
  const resigned = await signer.sign(
    {
      method: req.method!,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
    },
    { signingDate },
  );
  return resigned.headers.authorization === auth;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

describe('record --stream against a loopback Bedrock (binary event stream, SigV4)', () => {
  it('signs each call, decodes the frames, and writes a fixture holding the events and signatures as sent', async () => {
    const seen: { path: string; body: string; valid: boolean; token: unknown }[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', async () => {
        const call = seen.length;
        seen.push({
          path: req.url!,
          body,
          valid: await signatureValid(req, body),
          token: req.headers['x-amz-security-token'],
        });
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': `req-${call}` });
        // Frames cut at odd places: a frame's bytes arrive in several writes.
        const bytes = Buffer.concat(answer(call));
        for (let at = 0; at < bytes.length; at += 37) res.write(bytes.subarray(at, at + 37));
        res.end();
      });
    });
    await new Promise<void>((ready) => server!.listen(0, '127.0.0.1', ready));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const out = mkdtempSync(join(tmpdir(), 'rr-bedrock-'));
    // The shipped table sends any loopback host to the `local` row (Bedrock's row comes after it on
    // purpose), so the loopback stand-in gets a table with the Bedrock row first.
    const table = JSON.parse(readFileSync(join(specsDir(), 'routes.json'), 'utf8')) as { routes: { id: string }[] };
    table.routes.sort((a, b) => (a.id === 'bedrock' ? -1 : b.id === 'bedrock' ? 1 : 0));
    const routes = join(out, 'routes.json');
    writeFileSync(routes, JSON.stringify(table));
    const env = {
      AWS_ACCESS_KEY_ID: CREDS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey,
      AWS_SESSION_TOKEN: CREDS.sessionToken,
      AWS_REGION: REGION,
    };
    const r = await runCli(
      [
        'record',
        '--provider',
        'bedrock-claude',
        '--base-url',
        base,
        '--model',
        'us.anthropic.claude-test',
        '--scenario',
        'tool-call-with-reasoning',
        '--stream',
        '--out',
        out,
        '--routes',
        routes,
        '--timeout',
        '10000',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);

    expect(seen.map((s) => s.path)).toEqual([
      '/model/us.anthropic.claude-test/converse-stream',
      '/model/us.anthropic.claude-test/converse-stream',
    ]);
    expect(seen.every((s) => s.valid && s.token === CREDS.sessionToken)).toBe(true);
    // The second call replayed the first turn's signed reasoning verbatim (the signed policy).
    expect(seen[1]!.body).toContain(SIG[0]);

    const file = join(out, 'bedrock-claude', 'tool-call-with-reasoning.json');
    expect(r.stdout).toContain('wrote ');
    const text = readFileSync(file, 'utf8');
    for (const secret of [CREDS.secretAccessKey, CREDS.sessionToken, CREDS.accessKeyId, 'AWS4-HMAC-SHA256'])
      expect(text).not.toContain(secret);
    const fixture = checkFixture(JSON.parse(text), file);
    expect(fixture).toMatchObject({
      provider: 'bedrock-claude',
      family: 'bedrock-converse',
      route: 'bedrock',
      provenance: { kind: 'recorded' },
    });
    expect(fixture.exchanges).toHaveLength(2);
    fixture.exchanges.forEach((exchange, call) => {
      expect(exchange.response.headers?.['content-type']).toBe('application/vnd.amazon.eventstream');
      const sent = decodeEventStream(Buffer.concat(answer(call)));
      expect(exchange.response.stream!.events.map(({ event, data }) => ({ event, data }))).toEqual(sent);
      expect(exchange.carriers?.reasoning_details).toEqual([
        {
          type: 'thinking',
          thinking: call === 0 ? 'Need the weather; call get_weather.' : 'Light rain, so yes.',
          signature: SIG[call],
        },
      ]);
    });
  }, 60_000);
});
