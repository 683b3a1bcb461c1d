import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../test/helpers/run-cli-sync.test-helper.js';
import { projectRoot, specsDir } from '../../../shared/project-root.js';
import type { ClientReport } from '../run-report/client-report.js';
import { readServeLog } from './serve-log.js';
import { readFindingsHeader } from '../../../shared/findings/findings-record.js';

/**
 * `serve` judged from outside: the built CLI in its own process on 127.0.0.1, and a client that is
 * not our replay engine (plain fetch, hand-written bodies) replaying the tool-call scenario against
 * DeepSeek once correctly and once dropping reasoning_content from the tool-call turn.
 */
const work = mkdtempSync(join(tmpdir(), 'rr-serve-'));
const servers: ChildProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.exitCode === null) s.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

function startServe(args: string[]): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [join(projectRoot(), 'bin', 'reasoning-replay.js'), 'serve', '--port', '0', ...args],
    { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  servers.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve({ url: m[1]!, child, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${stderr}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

const deepseekWording = (): string => {
  const spec = JSON.parse(readFileSync(join(specsDir(), 'providers', 'deepseek.json'), 'utf8'));
  return spec.rejections['reasoning-content-not-passed-back'].body.error.message;
};

/** The scenario tool-call-with-reasoning as a client in any language would send it. */
async function replay(url: string, keepReasoning: boolean): Promise<Response[]> {
  const post = (messages: unknown[]) =>
    fetch(`${url}/deepseek/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer not-a-real-key',
        'x-reasoning-replay-scenario': 'tool-call-with-reasoning',
        'x-reasoning-replay-client': 'serve-test-client',
      },
      body: JSON.stringify({ model: 'deepseek-v4-flash', messages }),
    });
  const user = { role: 'user', content: 'Do I need an umbrella in Lisbon today?' };
  const first = await post([user]);
  const answer = (await first.clone().json()) as {
    choices: Array<{ message: { content: null; reasoning_content: string; tool_calls: unknown[] } }>;
  };
  const { reasoning_content, ...withoutReasoning } = answer.choices[0]!.message;
  const assistant = keepReasoning ? { ...withoutReasoning, reasoning_content } : withoutReasoning;
  const tool = { role: 'tool', tool_call_id: 'call_weather_1', content: '{"condition":"light rain","precip_mm":2.1}' };
  const second = await post([user, assistant, tool]);
  return [first, second];
}

function report(log: string, out: string, code: number): ClientReport {
  const result = runCli(['report', '--from-log', log, '--out', out]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(code);
  return JSON.parse(readFileSync(join(out, 'client-report.json'), 'utf8')) as ClientReport;
}

const cell = (r: ClientReport, provider: string, behaviour: string) =>
  r.cells.find((c) => c.provider === provider && c.behaviour === behaviour)!;

describe('reasoning-replay serve', () => {
  it('a correct replay gets 200s, is logged with empty findings, and reports as passing', async () => {
    const log = join(work, 'correct.jsonl');
    const { url, child } = await startServe(['--log', log]);
    const [first, second] = await replay(url, true);
    expect(first!.status).toBe(200);
    expect(second!.status).toBe(200);
    expect(readFindingsHeader(second!.headers, 'serve answer')).toEqual([]);
    expect(
      ((await second!.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
    ).toContain('light rain');
    expect(await stop(child)).toBe(0);

    const entries = readServeLog(log);
    expect(entries.map((e) => [e.provider, e.route, e.call, e.status, e.sentFields])).toEqual([
      ['deepseek', 'deepseek', 0, 200, []],
      ['deepseek', 'deepseek', 1, 200, ['reasoning_content']],
    ]);
    const r = report(log, join(work, 'correct-report'), 0);
    expect(r.source).toBe('log');
    expect(r.summary.verdict).toBe('pass');
    expect(r.clients).toEqual(['serve-test-client']);
    expect(cell(r, 'deepseek', 'must-echo').status).toBe('pass');
    expect(cell(r, 'deepseek', 'provider-accepts').status).toBe('pass');
    expect(cell(r, 'deepseek', 'survives-resume').status).toBe('not-observable');
  });

  it('dropping reasoning_content on the tool-call turn gets DeepSeek’s own 400 and a failing must-echo cell', async () => {
    const log = join(work, 'wrong.jsonl');
    const { url, child } = await startServe(['--log', log]);
    const [first, second] = await replay(url, false);
    expect(first!.status).toBe(200);
    expect(second!.status).toBe(400);
    expect(((await second!.json()) as { error: { message: string } }).error.message).toBe(deepseekWording());
    const findings = readFindingsHeader(second!.headers, 'serve answer');
    expect(findings.map((f) => f.rule)).toEqual(['must-echo']);
    expect(await stop(child)).toBe(0);

    const r = report(log, join(work, 'wrong-report'), 1);
    expect(r.summary.verdict).toBe('fail');
    const mustEcho = cell(r, 'deepseek', 'must-echo');
    expect(mustEcho.status).toBe('fail');
    expect(mustEcho.detail).toMatch(
      /request #2 \(call 1, POST \/deepseek\/chat\/completions\) answered 400: .*message 1/,
    );
    expect(readFileSync(join(work, 'wrong-report', 'junit.xml'), 'utf8')).toMatch(
      /<testcase classname="reasoning-replay.deepseek" name="must-echo">\s*<failure/,
    );
  });

  it('prints one verdict line per request on stderr (not with --quiet), a summary on stopping, and docs by file URL', async () => {
    const loud = await startServe(['--log', join(work, 'loud.jsonl')]);
    const index = (await (await fetch(loud.url)).json()) as { docs: string };
    expect(index.docs).toMatch(/^file:\/\//);
    expect(existsSync(fileURLToPath(index.docs))).toBe(true);
    await replay(loud.url, false);
    expect(await stop(loud.child)).toBe(0);
    const lines = loud.stderr().split('\n');
    expect(lines.filter((l) => /^[✓✗!] #\d/.test(l))).toEqual([
      expect.stringMatching(
        /^✓ #1 POST \/deepseek\/chat\/completions → 200 \(deepseek, route deepseek, call 0, serve-test-client\)$/,
      ),
      expect.stringMatching(/^✗ #2 POST \/deepseek\/chat\/completions → 400 .* must-echo: /),
    ]);
    expect(loud.stderr()).toContain(
      'stopped after 2 request(s): 1 conform, 1 refused (must-echo ×1), 0 with a contested warning',
    );

    const quiet = await startServe(['--log', join(work, 'quiet.jsonl'), '--quiet']);
    await replay(quiet.url, true);
    expect(await stop(quiet.child)).toBe(0);
    expect(quiet.stderr()).not.toMatch(/^[✓✗!] #/m);
    expect(quiet.stderr()).toContain('stopped after 2 request(s): 2 conform, 0 refused');
  });

  it('streams SSE through, and answers unknown paths with its own 404 rather than a provider’s', async () => {
    const { url, child } = await startServe([
      '--scenario',
      'tool-call-with-reasoning',
      '--log',
      join(work, 'misc.jsonl'),
      '--log-bodies',
    ]);
    const index = (await (await fetch(`${url}/`)).json()) as {
      providers: Array<{ id: string; baseUrl: string; endpoints: string[] }>;
      sdkVariables: Record<string, string>;
    };
    expect(index.providers.find((p) => p.id === 'anthropic')).toMatchObject({
      baseUrl: `${url}/anthropic`,
      endpoints: [`POST ${url}/anthropic/v1/messages`],
    });
    expect(index.sdkVariables.OPENAI_BASE_URL).toBe(`${url}/openai`);
    const stream = await fetch(`${url}/deepseek/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'deepseek-v4-flash',
        stream: true,
        messages: [{ role: 'user', content: 'Umbrella? my key is sk-proj-abcdefghijklmnopqrstuvwx' }],
      }),
    });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const text = await stream.text();
    expect(text.split('\n\n').filter((e) => e.startsWith('data: ')).length).toBeGreaterThan(2);
    expect(text).toContain('"reasoning_content"');
    const unknown = await fetch(`${url}/nobody/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe('reasoning_replay_serve_error');
    expect(await stop(child)).toBe(0);
    const logged = readFileSync(join(work, 'misc.jsonl'), 'utf8');
    expect(logged).toContain('Umbrella? my key is [redacted sk-p…(32 chars)]');
    expect(logged).not.toContain('sk-proj-');
  });

  it('bad input exits 2 with one line: an unknown scenario, a log that is not JSON lines', () => {
    const bad = runCli(['serve', '--scenario', 'no-such-scenario']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^reasoning-replay: --scenario: no scenario "no-such-scenario" \(hint: one of .*\)\n$/);
    const notLog = join(work, 'not-a-log.jsonl');
    writeFileSync(notLog, '{"seq":1}\nnot json\n');
    const result = runCli(['report', '--from-log', notLog, '--out', join(work, 'x')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^reasoning-replay: \S*not-a-log\.jsonl:1 at \/: missing required property "\w+" \(hint: see specs\/schema\/serve-log\.schema\.json\)\n$/,
    );
  });
});
