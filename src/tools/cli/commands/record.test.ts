import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runMatrix } from '../../services/matrix/run-matrix.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import { checkFixture, type Fixture } from '../../../provider/fixtures/fixture-store.js';
import { fixturesDir } from '../../../shared/project-root.js';
import {
  ENCRYPTED_REASONING,
  startFakeProvider,
  type FakeProvider,
  type FakeProviderOptions,
} from '../../services/recorder/fake-provider.test-helper.js';
import { runCli, spawnCli, type CliResult } from '../../../../test/helpers/run-cli.test-helper.js';

// Made-up credentials shaped like real ones, planted by the fake provider and the test.
const KEY = 'sk-live-rec0rd3r-t3st-4f9Qx2LmN8rT1vYb6KcZ';
const QUERY_KEY = 'AIzaSyQueryKey-0123456789abcdefghijklmn';
const SCENARIO = 'tool-call-with-reasoning';

let server: FakeProvider | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function outDir(): string {
  return mkdtempSync(join(tmpdir(), 'rr-record-'));
}

/** Every file under dir, temp files included (a leftover `.x.json.123.tmp` is litter). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function record(
  options: FakeProviderOptions,
  out: string,
  extra: string[] = [],
  env: Record<string, string> = { DEEPSEEK_API_KEY: KEY },
) {
  server ??= await startFakeProvider({ tier: 'must-echo', secret: KEY, chunkDelayMs: 3, ...options });
  return runCli(
    [
      'record',
      '--provider',
      'deepseek',
      '--base-url',
      `${server.baseUrl}?key=${QUERY_KEY}`,
      '--model',
      'deepseek-v4-flash',
      '--scenario',
      SCENARIO,
      '--out',
      out,
      ...extra,
    ],
    env,
  );
}

/** Exit 0, or fail showing what the CLI said. */
function expectOk(r: CliResult): void {
  expect(r.code, `exit ${r.code}: ${r.stderr}`).toBe(0);
}

const fixtureFile = (out: string) => join(out, 'deepseek', `${SCENARIO}.json`);
const readFixture = (out: string): Fixture =>
  checkFixture(JSON.parse(readFileSync(fixtureFile(out), 'utf8')), fixtureFile(out));
const MARK = '[redacted-by-recorder:DEEPSEEK_API_KEY]';

describe('reasoning-replay record (built CLI against a loopback provider)', () => {
  it('records a streamed scenario: the events the server sent, in order, redacted, replayable', async () => {
    const out = outDir();
    const r = await record({}, out, ['--stream']);
    expect(r.stderr).toBe(''); // not a TTY: no progress line, and nothing went wrong
    expectOk(r);
    expect(r.stdout).toMatch(
      /^wrote .*deepseek\/tool-call-with-reasoning\.json: 2 exchanges, [\d.]+ kB received from 127\.0\.0\.1:\d+\n$/,
    );

    const text = readFileSync(fixtureFile(out), 'utf8');
    for (const secret of [KEY, QUERY_KEY, 'Bearer sk-']) expect(text).not.toContain(secret);
    expect(text).toContain(ENCRYPTED_REASONING); // encrypted reasoning is kept byte for byte

    const fixture = readFixture(out);
    expect(fixture.provenance).toMatchObject({
      kind: 'recorded',
      tool: 'reasoning-replay 0.1.0',
      endpointHost: new URL(server!.baseUrl).host,
    });
    expect(fixture).toMatchObject({
      provider: 'deepseek',
      route: 'deepseek',
      model: 'deepseek-v4-flash',
      scenario: SCENARIO,
      family: 'openai-chat',
    });
    expect(fixture.exchanges).toHaveLength(2);
    for (const [i, exchange] of fixture.exchanges.entries()) {
      const sent = server!.sent[i]!.events!.map((e) => ({ data: e.data.split(KEY).join(MARK) }));
      expect(exchange.response.stream!.events.map(({ data }) => ({ data }))).toEqual(sent);
      const times = exchange.response.stream!.events.map((e) => e.atMs!);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(exchange.request!.url).toBe(
        `${server!.baseUrl.replace('/v1', '/v1/chat/completions')}?key=[redacted-by-recorder]`,
      );
      expect(exchange.request!.headers!.authorization).toBe('Bearer [redacted-by-recorder]');
      expect(exchange.response.headers!['set-cookie']).toBe('sid=[redacted-by-recorder]');
      expect(exchange.response.headers!['x-echo-api-key']).toBe(MARK);
      expect(exchange.response.headers!['transfer-encoding']).toBeUndefined();
    }
    // The key planted in the first answer's tool arguments went out again in the second request body.
    expect(JSON.stringify(server!.requests[1]!.body)).toContain(KEY);
    expect(JSON.stringify(fixture.exchanges[1]!.request!.body)).toContain(MARK);
    // The second call echoed what the route reads from the first answer (the server is must-echo).
    const firstReasoning = fixture.exchanges[0]!.carriers!.reasoning_content as string;
    expect(firstReasoning).toMatch(/^Call 0: /);
    expect(
      (server!.requests[1]!.body as { messages: Array<{ reasoning_content?: string }> }).messages[1]!.reasoning_content,
    ).toBe(firstReasoning);
    expect(filesUnder(out)).toEqual([fixtureFile(out)]);
  });

  it('records an unstreamed scenario as JSON bodies, and the gate passes on both recordings through the mocks', async () => {
    const streamed = outDir();
    const plain = outDir();
    expectOk(await record({}, streamed, ['--stream']));
    const r = await record({}, plain);
    expectOk(r);
    const fixture = readFixture(plain);
    expect(fixture.exchanges[0]!.response.body).toMatchObject({
      object: 'chat.completion',
      system_fingerprint: `fp_${MARK}`,
    });
    expect(fixture.exchanges[0]!.response.stream).toBeUndefined();

    // The gate, on a copy of the repo's fixtures where the recorded capture replaces the synthesized one.
    for (const [recorded, stream] of [
      [streamed, true],
      [plain, false],
    ] as const) {
      const tree = outDir();
      cpSync(fixturesDir(), tree, { recursive: true });
      cpSync(fixtureFile(recorded), join(tree, 'deepseek', `${SCENARIO}.json`));
      const run = await runMatrix({ engine: builtInEngine, fixturesDir: tree, routes: new Set(['deepseek']), stream });
      const cell = run.cells.find((c) => c.target === 'deepseek' && c.scenario === SCENARIO)!;
      expect(cell.fixture?.provenance).toBe('recorded');
      expect(cell.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expect(cell.status).toBe('pass');
    }
  });

  it('modes: once skips an existing fixture, all refuses a recorded one without --force, --force replaces it, new replaces a synthesized one', async () => {
    const out = outDir();
    expectOk(await record({}, out));
    const before = readFileSync(fixtureFile(out), 'utf8');
    const calls = () => server!.requests.length;
    const sentBefore = calls();

    const once = await record({}, out);
    expectOk(once);
    expect(once.stderr).toContain('nothing recorded');
    const all = await record({}, out, ['--mode', 'all']);
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('--force');
    expect(calls()).toBe(sentBefore); // decided before any request
    expect(readFileSync(fixtureFile(out), 'utf8')).toBe(before);

    const forced = await record({}, out, ['--mode', 'all', '--force']);
    expectOk(forced);
    expect(readFixture(out).provenance.kind).toBe('recorded');

    writeFileSync(
      fixtureFile(out),
      JSON.stringify({
        ...readFixture(out),
        provenance: { kind: 'synthesized', sources: ['https://example.com/docs'] },
      }),
    );
    expectOk(await record({}, out, ['--mode', 'once']));
    expect(readFixture(out).provenance.kind).toBe('synthesized');
    const upgraded = await record({}, out, ['--mode', 'new']);
    expectOk(upgraded);
    expect(upgraded.stdout).toContain('replaced a synthesized fixture');
    expect(readFixture(out).provenance.kind).toBe('recorded');
  });

  it('refuses to write when a credential the redactor does not know by name survives, naming where', async () => {
    const out = outDir();
    const r = await record({ unlistedLeak: 'token ghp_4f9Qx2LmN8rT1vYb6KcZ0aWd3eHs7uJpAbCd' }, out, ['--stream']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('/exchanges/0/response/headers/x-debug-upstream');
    expect(r.stderr).toContain('GitHub token');
    expect(r.stderr).not.toContain('ghp_4f9Qx2LmN8rT1vYb6KcZ0aWd3eHs7uJpAbCd');
    expect(filesUnder(out)).toEqual([]);
  });

  // Issue 27: a local server's placeholder key (vLLM's `EMPTY`) was refused, and with it any signature
  // holding those letters could never be recorded. It is no secret: sent, and never searched for.
  it('records a local server with the placeholder key EMPTY, its letters in a signature kept byte for byte', async () => {
    const signature = `${ENCRYPTED_REASONING.slice(0, 20)}EMPTY${ENCRYPTED_REASONING.slice(20)}`;
    const out = outDir();
    const r = await record({ secret: 'EMPTY', encryptedReasoning: signature }, out, ['--stream'], {
      DEEPSEEK_API_KEY: 'EMPTY',
    });
    expectOk(r);
    const text = readFileSync(fixtureFile(out), 'utf8');
    expect(text).toContain(signature);
    expect(text).not.toContain('[redacted-by-recorder:DEEPSEEK_API_KEY]');
    expect(text).toContain('(debug token EMPTY)'); // the server's echo of it: not a secret, kept as sent
    expect(server!.requests[0]!.headers.authorization).toBe('Bearer EMPTY');
    // The header is a credential by name whatever it holds.
    expect(readFixture(out).exchanges[0]!.request!.headers!.authorization).toBe('Bearer [redacted-by-recorder]');
  });

  it('leaves no fixture and no temp file when the server closes the socket mid-stream', async () => {
    const out = outDir();
    const r = await record({ cutAtEvent: 4 }, out, ['--stream']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/call 0 to .*: the connection broke mid-body after \d+ bytes/);
    expect(filesUnder(out)).toEqual([]);
  });

  it('leaves no fixture and no temp file when the recording process is killed with SIGKILL mid-stream', async () => {
    const out = outDir();
    mkdirSync(join(out, 'deepseek'), { recursive: true });
    server = await startFakeProvider({ tier: 'must-echo', secret: KEY, chunkDelayMs: 2, stallAtEvent: 5 });
    const { child, result } = spawnCli(
      [
        'record',
        '--provider',
        'deepseek',
        '--base-url',
        server.baseUrl,
        '--model',
        'deepseek-v4-flash',
        '--scenario',
        SCENARIO,
        '--out',
        out,
        '--stream',
      ],
      {
        DEEPSEEK_API_KEY: KEY,
      },
    );
    await server.stalled;
    child.kill('SIGKILL');
    const r = await result;
    expect(r.signal).toBe('SIGKILL');
    expect(filesUnder(out)).toEqual([]);
    expect(statSync(join(out, 'deepseek')).isDirectory()).toBe(true);
    // SIGKILL skips all cleanup, so the killed run's event spool (under the OS temp dir, never beside
    // the fixtures) is still there; the next recording removes it.
    const spoolsOf = (pid: number) =>
      readdirSync(tmpdir()).filter((n) => n.startsWith(`reasoning-replay-record-${pid}-`));
    expect(spoolsOf(child.pid!)).toHaveLength(1);
    expectOk(await record({}, out, ['--stream']));
    expect(spoolsOf(child.pid!)).toEqual([]);
    expect(filesUnder(out)).toEqual([fixtureFile(out)]);
  });

  it('records an endpoint nobody has written a spec for, routed by provider id and host, key from --api-key-env', async () => {
    const out = outDir();
    server = await startFakeProvider({ tier: 'standard', secret: KEY });
    const r = await runCli(
      [
        'record',
        '--provider',
        'acme',
        '--base-url',
        server.baseUrl,
        '--model',
        'acme-think',
        '--scenario',
        SCENARIO,
        '--out',
        out,
        '--api-key-env',
        'ACME_KEY',
      ],
      {
        ACME_KEY: KEY,
      },
    );
    expectOk(r);
    const file = join(out, 'acme', `${SCENARIO}.json`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('[redacted-by-recorder:ACME_KEY]');
    const fixture = checkFixture(JSON.parse(text), file);
    // 127.0.0.1 is a local host: the local route (reasoning_content + reasoning) carried the first answer back.
    expect(fixture).toMatchObject({ provider: 'acme', route: 'local', family: 'openai-chat' });
    expect(
      Object.keys((server.requests[1]!.body as { messages: Array<Record<string, unknown>> }).messages[1]!).filter((k) =>
        k.startsWith('reasoning'),
      ),
    ).toEqual(['reasoning_content', 'reasoning']);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('exits 2 on bad input, naming the flag', async () => {
    const r = await runCli([
      'record',
      '--provider',
      'deepseek',
      '--base-url',
      'http://127.0.0.1:9',
      '--model',
      'm',
      '--scenario',
      'no-such-scenario',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--scenario');
    expect(r.stderr).toContain(SCENARIO);
  });
});
