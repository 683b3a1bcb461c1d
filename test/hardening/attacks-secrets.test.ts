/**
 * Attacks on "no secret ever lands in a fixture, report or printed line" (issue 15 items 1-8).
 * Each class plants a credential the way a real provider, proxy or user mistake would, records a
 * scenario in-process against a scripted provider (an injected fetch: no socket at all) or runs
 * the built CLI against a loopback server, and looks for the credential in every form it could
 * take on disk or on the terminal. Over-redaction is an attack too: an honest blob must survive.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/shared/errors/input-error.js';
import { readApiKey, secretValues } from '../../src/tools/services/recorder/api-key.js';
import { fixturePath } from '../../src/tools/services/recorder/fixture-file.js';
import { resolveLiveTarget } from '../../src/tools/services/recorder/live-target.js';
import { recordScenario } from '../../src/tools/services/recorder/record-scenario.js';
import { probeRoute } from '../../src/tools/services/recorder/probe/probe-route.js';
import type { SecretValue } from '../../src/tools/services/recorder/redact.js';
import { runCli } from '../helpers/run-cli.test-helper.js';
import { loadRouteTable } from '../../src/shared/route-table/load-route-table.js';
import { loadScenarios } from '../../src/shared/scenarios/load-scenarios.js';
import { formatSseEvent } from '../../src/shared/sse/parse-sse.js';
import { AttackClass, hasStackTrace, must } from './attack-class.test-helper.js';

const table = loadRouteTable();
const scenario = loadScenarios().find((s) => s.id === 'tool-call-with-reasoning')!;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (n: number, alphabet = ALNUM) =>
  Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
/** Credential shapes are assembled at run time: no key-shaped literal sits in the source. */
const newKey = () => ['sk', 'live', random(32)].join('-');
const SIGNATURE = 'EqQBCkgIARABGAIiQL' + random(60) + 'x' + random(20) + '==';

interface Plant {
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Text appended to the final answer's content (JSON body) or split across content deltas (stream). */
  content?: string;
  /** Split the content across this many deltas (stream only): a key spans events. */
  pieces?: number;
  /** Status and body of a refusal instead of an answer. */
  refuse?: { status: number; body: unknown };
}

/** An OpenAI-chat provider scripted in memory: call 0 answers a tool call, call 1 the final text. */
function scriptedFetch(plant: Plant): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = (await request.json()) as { messages: Array<{ role: string }>; stream?: boolean };
    const headers = {
      'content-type': body.stream ? 'text/event-stream' : 'application/json',
      'x-request-id': 'req_1',
      ...plant.headers,
    };
    if (plant.refuse)
      return new Response(JSON.stringify(plant.refuse.body), {
        status: plant.refuse.status,
        headers: { ...headers, 'content-type': 'application/json' },
      });
    const final = body.messages.at(-1)?.role === 'tool';
    const reasoning = 'Need the weather; call get_weather.';
    const details = [{ type: 'reasoning.encrypted', data: SIGNATURE, format: 'anthropic-claude-v1', index: 0 }];
    const toolCalls = [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ];
    const content = final ? `It is sunny.${plant.content ?? ''}` : null;
    if (!body.stream) {
      const message = {
        role: 'assistant',
        content,
        reasoning_content: reasoning,
        reasoning_details: details,
        ...(final ? {} : { tool_calls: toolCalls }),
      };
      return new Response(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          model: 'm',
          choices: [{ index: 0, message, finish_reason: final ? 'stop' : 'tool_calls' }],
        }),
        {
          status: 200,
          headers,
        },
      );
    }
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      JSON.stringify({
        id: 'c1',
        object: 'chat.completion.chunk',
        model: 'm',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const events = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: reasoning }),
      chunk({ reasoning_details: details }),
    ];
    if (final) {
      const text = content!;
      const n = plant.pieces ?? 1;
      const size = Math.ceil(text.length / n);
      for (let i = 0; i < text.length; i += size) events.push(chunk({ content: text.slice(i, i + size) }));
      events.push(chunk({}, 'stop'));
    } else {
      events.push(chunk({ tool_calls: toolCalls.map((t, index) => ({ index, ...t })) }), chunk({}, 'tool_calls'));
    }
    const wire = events.map((data) => formatSseEvent({ data })).join('') + formatSseEvent({ data: '[DONE]' });
    return new Response(wire, { status: 200, headers });
  };
}

interface Recorded {
  /** The fixture's text, or undefined when nothing was written. */
  text?: string;
  error?: unknown;
}

async function record(
  plant: Plant,
  options: { key: string; stream?: boolean; baseUrl?: string; placeholder?: boolean },
): Promise<Recorded> {
  const out = mkdtempSync(join(tmpdir(), 'rr-attack-secrets-'));
  // The secrets as the CLI computes them: a local placeholder key (api-key.ts) is none.
  const env = { DEEPSEEK_API_KEY: options.key };
  const secrets: SecretValue[] = options.placeholder
    ? secretValues(readApiKey('DEEPSEEK_API_KEY', env, { host: new URL(options.baseUrl!).host }), [], env)
    : [{ name: 'DEEPSEEK_API_KEY', value: options.key }];
  let file = '';
  try {
    const live = resolveLiveTarget({
      provider: 'deepseek',
      baseUrl: options.baseUrl ?? 'https://api.deepseek.com',
      model: 'deepseek-v4-flash',
      table,
    });
    file = fixturePath(out, live.id, scenario.id);
    await recordScenario({
      live,
      scenario,
      table,
      stream: options.stream ?? false,
      apiKey: options.key,
      secrets,
      file,
      fetch: scriptedFetch(plant),
    });
  } catch (error) {
    return { error };
  }
  return existsSync(file) ? { text: readFileSync(file, 'utf8') } : {};
}

/** Every string in a JSON value, with strings that hold JSON opened up too (a body inside a body). */
function deepStrings(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') {
    // Also the string with its \u escapes undone: JSON text inside a string keeps them literally.
    const out = [
      value,
      value.replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    ];
    if (depth < 4 && /^\s*[[{"]/.test(value)) {
      try {
        out.push(...deepStrings(JSON.parse(value), depth + 1));
      } catch {
        /* not JSON */
      }
    }
    return out;
  }
  if (Array.isArray(value)) return value.flatMap((v) => deepStrings(v, depth));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => [k, ...deepStrings(v, depth)]);
  return [];
}

/** The text of every stream's content deltas joined: what a reader of the stream would see. */
function streamedContent(fixtureText: string): string[] {
  const fixture = JSON.parse(fixtureText) as {
    exchanges: Array<{ response: { stream?: { events: Array<{ data: string }> } } }>;
  };
  return fixture.exchanges.map((x) =>
    (x.response.stream?.events ?? [])
      .map((e) => {
        try {
          return (
            (JSON.parse(e.data) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta
              ?.content ?? ''
          );
        } catch {
          return '';
        }
      })
      .join(''),
  );
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Written and clean: the fixture exists, and no form of `needle` is in it. */
function mustBeWrittenWithout(r: Recorded, needles: string[]): void {
  must(
    r.text !== undefined,
    `nothing was written (${r.error instanceof Error ? r.error.message.slice(0, 160) : String(r.error)})`,
  );
  const strings = [r.text!, ...deepStrings(JSON.parse(r.text!)), ...streamedContent(r.text!)];
  for (const needle of needles)
    must(!strings.some((s) => s.includes(needle)), `the fixture holds ${needle.slice(0, 6)}…`);
}

/** Not leaked: either refused (nothing on disk) or written without any of the needles. */
function mustNotLeak(r: Recorded, needles: string[]): void {
  if (r.text === undefined) return;
  const strings = [r.text, ...deepStrings(JSON.parse(r.text))];
  for (const needle of needles)
    must(!strings.some((s) => s.includes(needle)), `the fixture holds ${needle.slice(0, 6)}…`);
}

describe('hardening: secrets (issue 15 items 1-8)', () => {
  it('S1 a key split across SSE events is redacted in the events, not only in carriers', async () => {
    const c = new AttackClass('S1 key split across stream events');
    for (const pieces of [2, 3, 7]) {
      await c.attack(`split into ${pieces} deltas`, async () => {
        const key = newKey();
        mustBeWrittenWithout(await record({ content: ` token ${key} end`, pieces }, { key, stream: true }), [key]);
      });
    }
    expect(c.done()).toEqual([]);
  });

  it('S2 JSON-escaped keys, also inside a JSON string that holds JSON, are redacted', async () => {
    const c = new AttackClass('S2 JSON-escaped / nested JSON');
    const escape = (key: string) => `\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}`;
    await c.attack('\\u-escaped first letter inside a nested JSON string', async () => {
      const key = newKey();
      // The content holds JSON text whose string spells the key with a \u escape.
      mustBeWrittenWithout(await record({ content: ` {"debug":"${escape(key)}"}` }, { key }), [key]);
    });
    await c.attack('a JSON string holding JSON holding the key', async () => {
      const key = newKey();
      mustBeWrittenWithout(
        await record({ content: ' ' + JSON.stringify(JSON.stringify({ upstream: { auth: key } })) }, { key }),
        [key],
      );
    });
    await c.attack('\\u-escaped in a stream event', async () => {
      const key = newKey();
      mustBeWrittenWithout(await record({ content: ` {"k":"${escape(key)}"}` }, { key, stream: true }), [key]);
    });
    expect(c.done()).toEqual([]);
  });

  it('S3 base64 of the key, in a body and in a header such as x-request-id, is redacted', async () => {
    const c = new AttackClass('S3 base64 forms');
    for (const [where, encode] of [
      ['body base64', b64],
      ['body base64url', b64url],
      ['body base64 of "Bearer key"', (k: string) => b64(`Bearer ${k}`)],
    ] as const) {
      await c.attack(where, async () => {
        const key = newKey();
        const r = await record({ content: ` ${encode(key)}` }, { key });
        mustBeWrittenWithout(r, [key, b64(key).slice(0, 24), b64url(key).slice(0, 24)]);
      });
    }
    await c.attack('x-request-id header', async () => {
      const key = newKey();
      mustBeWrittenWithout(await record({ headers: { 'x-request-id': b64(key) } }, { key }), [b64(key).slice(0, 24)]);
    });
    expect(c.done()).toEqual([]);
  });

  it('S4 percent-encoded keys in a returned URL are redacted', async () => {
    const c = new AttackClass('S4 percent-encoded');
    const pct = (s: string, n: number) =>
      [...s.slice(0, n)].map((ch) => '%' + ch.charCodeAt(0).toString(16).toUpperCase()).join('') + s.slice(n);
    for (const n of [1, 3, 100]) {
      await c.attack(`first ${n} characters percent-encoded`, async () => {
        const key = newKey();
        mustBeWrittenWithout(await record({ content: ` see https://cb.example/x?token=${pct(key, n)}&a=1` }, { key }), [
          key,
          pct(key, n),
          ...(n < key.length ? [key.slice(n)] : []),
        ]);
      });
    }
    expect(c.done()).toEqual([]);
  });

  it('S5 credential query parameters of the base URL are not written', async () => {
    const c = new AttackClass('S5 base URL query credentials');
    for (const param of ['token', 'code', 'sig', 'key', 'signature', 'auth', 'password', 'client_secret']) {
      await c.attack(`?${param}=`, async () => {
        const key = newKey();
        const value = `Qv${random(22)}`;
        const r = await record({}, { key, baseUrl: `https://api.deepseek.com/?${param}=${value}` });
        mustBeWrittenWithout(r, [value]);
      });
    }
    await c.attack('probe prints an unreachable base URL without its ?token=', async () => {
      const value = `Qv${random(22)}`;
      const r = await runCli(
        ['probe', '--provider', 'deepseek', '--base-url', `http://127.0.0.1:9/v1?token=${value}`, '--model', 'm'],
        { DEEPSEEK_API_KEY: newKey() },
      );
      must(!`${r.stdout}${r.stderr}`.includes(value), 'printed the token');
    });
    expect(c.done()).toEqual([]);
  });

  it('S6 user:password@ in the base URL reaches neither the fixture nor the terminal', async () => {
    const c = new AttackClass('S6 userinfo in base URL');
    const password = `pw${random(18)}`;
    await c.attack('recorded in-process', async () => {
      const r = await record({}, { key: newKey(), baseUrl: `https://alice:${password}@api.deepseek.com` });
      must(
        r.error === undefined || !(r.error instanceof Error && r.error.message.includes(password)),
        'the error names the password',
      );
      mustNotLeak(r, [password]);
    });
    const server = await refusingServer(401, { error: { message: 'unauthorized' } });
    await c.attack('record CLI stderr', async () => {
      const r = await runCli(
        [
          'record',
          '--provider',
          'deepseek',
          '--base-url',
          `http://alice:${password}@127.0.0.1:${port(server)}/v1`,
          '--model',
          'deepseek-v4-flash',
          '--scenario',
          'tool-call-with-reasoning',
          '--out',
          mkdtempSync(join(tmpdir(), 'rr-attack-')),
        ],
        { DEEPSEEK_API_KEY: newKey() },
      );
      must(!`${r.stdout}${r.stderr}`.includes(password), 'printed the password');
      must(!hasStackTrace(r.stderr), 'printed a stack trace');
    });
    await c.attack('probe CLI stderr', async () => {
      const r = await runCli(
        [
          'probe',
          '--provider',
          'deepseek',
          '--base-url',
          `http://alice:${password}@127.0.0.1:${port(server)}/v1`,
          '--model',
          'deepseek-v4-flash',
        ],
        {
          DEEPSEEK_API_KEY: newKey(),
        },
      );
      must(!`${r.stdout}${r.stderr}`.includes(password), 'printed the password');
      must(!hasStackTrace(r.stderr), 'printed a stack trace');
    });
    server.close();
    expect(c.done()).toEqual([]);
  });

  it('S7 credentials the key variable does not name (AWS secret, Groq, Hugging Face, xAI, ...) are not written', async () => {
    const c = new AttackClass('S7 other credentials');
    /** Each makes [the text planted, the random part a reader could use]. */
    const withSecret = (secret: string, text: (s: string) => string) => (): [string, string] => [text(secret), secret];
    const others: Array<[string, () => [string, string]]> = [
      ['AWS secret access key', () => withSecret(random(40, ALNUM + '/+'), (s) => `aws_secret_access_key=${s}`)()],
      ['Groq gsk_', () => withSecret(random(52), (s) => `gsk_${s}`)()],
      ['Hugging Face hf_', () => withSecret(random(34), (s) => `hf_${s}`)()],
      ['xAI xai-', () => withSecret(random(80), (s) => `xai-${s}`)()],
      ['Anthropic admin key', () => withSecret(random(93), (s) => ['sk', 'ant', 'admin01', s].join('-') + 'AA')()],
      ['GitHub fine-grained token', () => withSecret(random(82), (s) => `github_pat_${s}`)()],
      [
        'Slack bot token',
        () =>
          withSecret(random(24), (s) =>
            ['xo' + 'xb', random(11, '0123456789'), random(12, '0123456789'), s].join('-'),
          )(),
      ],
      ['npm token', () => withSecret(random(36), (s) => `npm_${s}`)()],
      [
        'private key block',
        () =>
          withSecret(random(64), (s) =>
            ['-----BEGIN ' + 'OPENSSH PRIVATE KEY-----', s, '-----END OPENSSH PRIVATE KEY-----'].join('\n'),
          )(),
      ],
      [
        'database URL with password',
        () => withSecret(random(16), (s) => `postgres://app:${s}@db.internal.example:5432/prod`)(),
      ],
      [
        'URL with user:password',
        () => withSecret(random(16), (s) => `https://bot:${s}@git.internal.example/repo.git`)(),
      ],
    ];
    for (const [name, make] of others) {
      await c.attack(name, async () => {
        const [planted, needle] = make();
        mustNotLeak(await record({ content: ` ${planted}` }, { key: newKey() }), [needle]);
      });
    }
    expect(c.done()).toEqual([]);
  });

  it('S8 error bodies printed by record and probe are redacted', async () => {
    const c = new AttackClass('S8 printed error bodies');
    // One run per command (a spawn is the slow part); each leak is judged as its own attack.
    for (const command of ['record', 'probe'] as const) {
      const key = newKey();
      const other = `gsk_${random(52)}`;
      const server = await refusingServer(401, {
        error: {
          message: `Incorrect API key provided: ${key}. Upstream also rejected ${other}.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      });
      const base = [
        '--provider',
        'deepseek',
        '--base-url',
        `http://127.0.0.1:${port(server)}/v1`,
        '--model',
        'deepseek-v4-flash',
      ];
      const args =
        command === 'record'
          ? [
              'record',
              ...base,
              '--scenario',
              'tool-call-with-reasoning',
              '--out',
              mkdtempSync(join(tmpdir(), 'rr-attack-')),
            ]
          : ['probe', ...base];
      const r = await runCli(args, { DEEPSEEK_API_KEY: key });
      server.close();
      const printed = `${r.stdout}${r.stderr}`;
      await c.attack(`${command}: "Incorrect API key provided: <key>"`, () => {
        must(!printed.includes(key.slice(8)), 'printed the key');
        must(/Incorrect API key provided/.test(printed), 'hid the provider wording altogether');
      });
      await c.attack(`${command}: an unrelated credential in the error body`, () =>
        must(!printed.includes(other.slice(4)), 'printed the credential'),
      );
    }
    expect(c.done()).toEqual([]);
  }, 60_000);

  it('S9 probe drops every credential header on a cross-origin redirect', async () => {
    const c = new AttackClass('S9 probe cross-origin redirect');
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
    });
    await listen(elsewhere);
    const redirector = createServer((req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${port(elsewhere)}${req.url}` }).end(),
    );
    await listen(redirector);
    const CREDENTIAL = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie', 'proxy-authorization'];
    for (const family of ['openai-chat', 'anthropic-messages', 'gemini'] as const) {
      await c.attack(family, async () => {
        seen.length = 0;
        const key = newKey();
        await probeRoute({
          baseUrl: `http://127.0.0.1:${port(redirector)}/v1`,
          family,
          target: { provider: 'x', host: 'localhost', model: 'm' },
          apiKey: key,
        }).catch(() => undefined);
        for (const headers of seen) {
          const leaked = CREDENTIAL.filter((h) => headers[h] !== undefined);
          must(leaked.length === 0, `forwarded ${leaked.join(', ')} to another origin`);
          must(!JSON.stringify(headers).includes(key), 'forwarded the key in some header');
        }
      });
    }
    elsewhere.close();
    redirector.close();
    expect(c.done()).toEqual([]);
  });

  it('S10 a key too short or too common to redact is refused up front, and never rewrites a signature', async () => {
    const c = new AttackClass('S10 short or common keys');
    for (const key of ['EMPTY', 'x', 'sk-1', 'none', 'aaaaaaaaaaaaaaaaaaaa']) {
      await c.attack(`key "${key}"`, async () => {
        if (key !== 'EMPTY') {
          // In-process: the same check the CLI runs when it reads the key.
          try {
            readApiKey('K', { K: key });
          } catch (err) {
            must(
              err instanceof InputError && /short|common/i.test(err.message),
              `no reason given: ${(err as Error).message}`,
            );
            return;
          }
          throw new Error('accepted');
        }
        // EMPTY is a local server's documented placeholder (api-key.ts), accepted only at a local
        // endpoint; sent to a public one it is refused like any short key, before any request.
        const server = await refusingServer(200, {});
        const r = await runCli(
          [
            'record',
            '--provider',
            'deepseek',
            '--base-url',
            'https://api.deepseek.com',
            '--model',
            'deepseek-v4-flash',
            '--scenario',
            'tool-call-with-reasoning',
            '--out',
            mkdtempSync(join(tmpdir(), 'rr-attack-')),
          ],
          { DEEPSEEK_API_KEY: key },
        );
        server.close();
        must(r.code === 2, `exit ${r.code}, expected 2`);
        must(/short|common|redact/i.test(r.stderr), `no reason given: ${r.stderr.slice(0, 120)}`);
        must(!hasStackTrace(r.stderr), 'printed a stack trace');
      });
    }
    await c.attack('EMPTY at a local server: recorded, its text in an answer never redacted', async () => {
      const r = await record(
        { content: ' EMPTY' },
        { key: 'EMPTY', baseUrl: 'http://127.0.0.1:9/v1', placeholder: true },
      );
      must(r.error === undefined, `refused: ${String(r.error)}`);
      must(r.text !== undefined && r.text.includes(SIGNATURE), 'the signature was rewritten');
      must(r.text!.includes('It is sunny. EMPTY'), 'the placeholder was redacted from the answer');
    });
    await c.attack('in-process: a signature holding the key text is kept byte for byte', async () => {
      const r = await record({}, { key: 'x' + random(3) });
      if (r.text !== undefined) must(r.text.includes(SIGNATURE), 'the signature was rewritten');
    });
    expect(c.done()).toEqual([]);
  }, 60_000);

  it('S11 honest blobs that merely contain credential-looking text are kept, not refused', async () => {
    const c = new AttackClass('S11 over-redaction of honest blobs');
    const akia = () => 'AK' + 'IA' + random(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
    for (const [name, blob] of [
      ['AKIA after "-" inside base64url', () => `${random(30)}-${akia()}_${random(30)}`],
      ['AKIA at the start of a base64url blob', () => `${akia()}-${random(60)}`],
      ['AIza after "_" inside base64url', () => `${random(20)}_AI${'za'}${random(35)}-${random(10)}`],
    ] as const) {
      await c.attack(name, async () => {
        const value = blob();
        const fetch = scriptedFetch({});
        // The blob stands where signed reasoning stands: reasoning_details[].data.
        const wrapped: typeof globalThis.fetch = async (input, init) => {
          const response = await fetch(input, init);
          const text = (await response.text()).replaceAll(SIGNATURE, value);
          return new Response(text, { status: response.status, headers: response.headers });
        };
        const out = mkdtempSync(join(tmpdir(), 'rr-attack-secrets-'));
        const live = resolveLiveTarget({
          provider: 'deepseek',
          baseUrl: 'https://api.deepseek.com',
          model: 'deepseek-v4-flash',
          table,
        });
        const file = fixturePath(out, live.id, scenario.id);
        const key = newKey();
        await recordScenario({
          live,
          scenario,
          table,
          stream: false,
          apiKey: key,
          secrets: [{ name: 'K', value: key }],
          file,
          fetch: wrapped,
        });
        must(readFileSync(file, 'utf8').includes(value), 'the blob was altered');
      });
    }
    expect(c.done()).toEqual([]);
  });
});

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

function listen(server: Server): Promise<void> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}
const port = (server: Server) => (server.address() as AddressInfo).port;

async function refusingServer(status: number, body: unknown): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
  });
  await listen(server);
  return server;
}
