/**
 * Attacks on "no write destroys what it replaces" and "bad input gets one clear line" (issue 15
 * items 9-15): special files as targets, full or unwritable places, paths that climb out of their
 * folder, litter from killed writers, deep and huge values, damaged state.db rows, and request
 * bodies `serve` must answer without crashing or passing them. Loopback only, bounded sizes.
 */
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMatrixInputs } from '../../src/tools/services/matrix/run-matrix.js';
import { InputError } from '../../src/shared/errors/input-error.js';
import { projectRoot } from '../../src/shared/project-root.js';
import { startFakeProvider } from '../../src/tools/services/recorder/fake-provider.test-helper.js';
import { runCli } from '../helpers/run-cli.test-helper.js';
import { startServe } from '../../src/tools/services/serve/start-serve.js';
import type { ServeLogEntry } from '../../src/tools/services/serve/serve-log.js';
import { SessionStore } from '../../src/engine/session/session-store.js';
import { sampleHistoryWithEveryCarrier } from '../../src/engine/session/sample-history.test-helper.js';
import { checkHistory } from '../../src/engine/history/load-history.js';
import { loadProviderSpec } from '../../src/shared/provider-specs/load-provider-specs.js';
import { ensureDir, writeFileAtomic } from '../../src/shared/files/write-file-atomic.js';
import { AttackClass, hasStackTrace, must } from './attack-class.test-helper.js';

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), `rr-attack-${prefix}-`));

/** One clear line on stderr, exit 1 or 2, no stack trace. */
function mustFailCleanly(r: { code: number | null; stderr: string }, about: RegExp): void {
  must(r.code === 1 || r.code === 2, `exit ${r.code}: ${r.stderr.slice(0, 200)}`);
  must(!hasStackTrace(r.stderr), `stack trace: ${r.stderr.slice(0, 200)}`);
  must(r.stderr.trim().split('\n').length <= 2, `more than a line or two: ${r.stderr.slice(0, 300)}`);
  must(about.test(r.stderr), `does not say what happened: ${r.stderr.slice(0, 200)}`);
}

/** Library-level: a write failure is one clear line (an InputError), not a raw errno error. */
function mustBeClearWriteError(fn: () => unknown, about: RegExp): void {
  try {
    fn();
  } catch (err) {
    must(err instanceof InputError, `a raw ${(err as Error).name}: ${(err as Error).message.slice(0, 160)}`);
    must(about.test((err as Error).message), `does not say what happened: ${(err as Error).message}`);
    return;
  }
  throw new Error('the write "succeeded"');
}

describe('hardening: writes and files (issue 15 items 9-12)', () => {
  it('W1 never renames over what is not a regular file: devices, FIFOs and symlinks are written through', async () => {
    const c = new AttackClass('W1 special-file targets');
    const dir = tmp('special');
    await c.attack('character device (a /dev/null made with mknod)', () => {
      const dev = join(dir, 'null');
      execFileSync('mknod', [dev, 'c', '1', '3']);
      writeFileAtomic(dev, '<junit/>');
      must(lstatSync(dev).isCharacterDevice(), 'the device was replaced by a regular file');
    });
    await c.attack('FIFO with a reader', () => {
      const fifo = join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      // A reader in another process: the write must go through the pipe to it.
      const child = execFileAsync(`cat ${fifo} > ${join(dir, 'fifo-out')}`);
      writeFileAtomic(fifo, 'through the pipe\n');
      child.wait();
      must(lstatSync(fifo).isFIFO(), 'the FIFO was replaced by a regular file');
      must(readFileSync(join(dir, 'fifo-out'), 'utf8') === 'through the pipe\n', 'the reader did not get the data');
    });
    await c.attack('symlink to a regular file', () => {
      const target = join(dir, 'real.xml');
      writeFileSync(target, 'old');
      const link = join(dir, 'link.xml');
      symlinkSync(target, link);
      writeFileAtomic(link, 'new');
      must(lstatSync(link).isSymbolicLink() && readlinkSync(link) === target, 'the symlink was replaced');
      must(readFileSync(target, 'utf8') === 'new', 'the target did not get the new content');
    });
    expect(c.done()).toEqual([]);
  });

  it('W2 a full disk, a directory target, a file where a folder is expected: one clear line, exit 1 or 2', async () => {
    const c = new AttackClass('W2 unwritable targets');
    const dir = tmp('unwritable');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await c.attack('disk full (a full device, written through)', () => {
      // A private copy of /dev/full: a regression must never replace the system's own device.
      const full = join(dir, 'full');
      execFileSync('mknod', [full, 'c', '1', '7']);
      mustBeClearWriteError(() => writeFileAtomic(full, 'x'.repeat(10_000)), /full|space/i);
      must(lstatSync(full).isCharacterDevice(), 'the device was replaced by a regular file');
    });
    await c.attack('the target is a directory (--junit /)', () =>
      mustBeClearWriteError(() => writeFileAtomic('/', 'x'), /directory/i),
    );
    await c.attack('a file where a folder is expected', () =>
      mustBeClearWriteError(() => writeFileAtomic(join(file, 'junit.xml'), 'x'), /not a directory|folder/i),
    );
    // `report --out` fails the same way (main maps the errno), but only after running the whole
    // matrix (~20 s): the folder step it takes is checked here, the CLI mapping by `serve --log`.
    await c.attack('report/record output folder under a file (ensureDir)', () =>
      mustBeClearWriteError(() => ensureDir(join(file, 'sub')), /not a directory|folder/i),
    );
    await c.attack('serve --log <file>/x.jsonl', async () =>
      mustFailCleanly(
        await runCli(['serve', '--port', '0', '--log', join(file, 'x.jsonl')]),
        /not a directory|folder/i,
      ),
    );
    const provider = await startFakeProvider({ tier: 'standard' });
    await c.attack('record --out <file>', async () => {
      const r = await runCli(
        [
          'record',
          '--provider',
          'deepseek',
          '--base-url',
          provider.baseUrl,
          '--model',
          'deepseek-v4-flash',
          '--scenario',
          'tool-call-with-reasoning',
          '--out',
          file,
        ],
        {
          DEEPSEEK_API_KEY: `sk-${'k'.repeat(8)}-0123456789abcdef`,
        },
      );
      mustFailCleanly(r, /not a directory|folder/i);
    });
    await provider.close();
    expect(c.done()).toEqual([]);
  }, 60_000);

  it('W3 paths stay inside their folder; ids are checked against the known set', async () => {
    const c = new AttackClass('W3 path traversal');
    const out = join(tmp('traversal'), 'A', 'B', 'out');
    const provider = await startFakeProvider({ tier: 'standard' });
    await c.attack('record --provider ../../escaped', async () => {
      const r = await runCli(
        [
          'record',
          '--provider',
          '../../escaped',
          '--base-url',
          provider.baseUrl,
          '--model',
          'm',
          '--family',
          'openai-chat',
          '--scenario',
          'tool-call-with-reasoning',
          '--out',
          out,
        ],
        { OPENAI_API_KEY: `sk-${'k'.repeat(8)}-0123456789abcdef` },
      );
      must(!existsSync(join(out, '..', '..', 'escaped')), 'wrote outside --out');
      must(r.code === 2, `exit ${r.code}`);
    });
    await provider.close();
    const inputs = loadMatrixInputs({});
    const serve = await startServe({
      port: 0,
      specs: inputs.specs,
      fixtures: inputs.fixtures,
      table: inputs.table,
      log: () => {},
    });
    const evil = tmp('evil');
    const fixture = JSON.parse(
      readFileSync(join(projectRoot(), 'fixtures/providers/deepseek/plain-two-turn-chat.json'), 'utf8'),
    );
    fixture.exchanges[0].response.body.choices[0].message.content = 'SERVED-FROM-OUTSIDE';
    writeFileSync(join(evil, 'evil.json'), JSON.stringify(fixture));
    const climb = `../../../../../../../../..${evil}/evil`;
    await c.attack('x-reasoning-replay-scenario: ../../…/evil', async () => {
      const r = await post(
        serve.url + '/deepseek/chat/completions',
        JSON.stringify({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'hi' }] }),
        {
          'x-reasoning-replay-scenario': climb,
        },
      );
      must(!r.body.includes('SERVED-FROM-OUTSIDE'), 'served a file from outside fixtures/');
      must(r.status >= 400 && r.status < 500, `status ${r.status}`);
    });
    await c.attack('an unknown scenario id is refused (the cache cannot grow with it)', async () => {
      const r = await post(
        serve.url + '/deepseek/chat/completions',
        JSON.stringify({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'hi' }] }),
        {
          'x-reasoning-replay-scenario': `nope-${Date.now()}`,
        },
      );
      must(r.status >= 400 && r.status < 500, `status ${r.status}`);
      must(
        /unknown scenario|no scenario/i.test(r.body),
        `does not say the scenario is unknown: ${r.body.slice(0, 160)}`,
      );
    });
    await serve.close();
    expect(c.done()).toEqual([]);
  }, 60_000);

  it('W4 temp files a killed writer left are removed on the next write and ignored by git', async () => {
    const c = new AttackClass('W4 stale temp files');
    const dir = tmp('temps');
    await c.attack('a stale temp beside a report file is removed by the next write', () => {
      const stale = join(dir, '.junit.xml.2147483000.1700000000000.tmp');
      writeFileSync(stale, 'x'.repeat(1024));
      writeFileAtomic(join(dir, 'junit.xml'), '<x/>');
      must(!existsSync(stale), 'the stale temp is still there');
      must(readdirSync(dir).sort().join(',') === 'junit.xml', `litter: ${readdirSync(dir).join(',')}`);
    });
    await c.attack('a stale temp of another file in the folder is removed too', () => {
      const other = join(dir, '.compatibility.json.2147483001.1700000000000.tmp');
      writeFileSync(other, 'x');
      writeFileAtomic(join(dir, 'junit.xml'), '<z/>');
      must(!existsSync(other), 'the other file’s stale temp is still there');
    });
    await c.attack('a live writer’s temp is left alone', () => {
      const live = join(dir, `.junit.xml.${process.pid}.1700000000000.tmp`);
      writeFileSync(live, 'x');
      writeFileAtomic(join(dir, 'junit.xml'), '<y/>');
      must(existsSync(live), 'removed a temp of a running process');
    });
    for (const path of [
      'fixtures/providers/deepseek/.plain-two-turn-chat.json.12345.1700000000000.tmp',
      'reports/.junit.xml.12345.1700000000000.tmp',
    ]) {
      await c.attack(`git ignores ${path}`, () => {
        const r = spawnSync('git', ['check-ignore', '-q', path], { cwd: projectRoot() });
        must(r.status === 0, 'not ignored');
      });
    }
    expect(c.done()).toEqual([]);
  });
});

describe('hardening: input (issue 15 items 13-15)', () => {
  const deep = (depth: number, leaf: unknown = 1) => '['.repeat(depth) + JSON.stringify(leaf) + ']'.repeat(depth);

  it('I1 deep or huge values are refused at validation with a clear line', async () => {
    const c = new AttackClass('I1 deep nesting at import');
    const dir = tmp('deep');
    const history = sampleHistoryWithEveryCarrier();
    const text = JSON.stringify(history);
    const variants: Array<[string, string]> = [];
    // reasoning_details: the first list of details gets a 100k-deep value in an extra key.
    variants.push([
      'reasoning_details 100k deep',
      text.replace('"reasoning_details":[{', `"reasoning_details":[{"deep":${deep(100_000)},`),
    ]);
    variants.push([
      'native.fields 100k deep',
      text.replace(/"native":\{([^{}]*?)"fields":\{/, (m) => `${m}"deep":${deep(100_000)},`),
    ]);
    variants.push([
      'tool arguments 100k deep object',
      text.replace('"tool_calls":[{', `"tool_calls":[{"deep":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)},`),
    ]);
    for (const [i, [name, body]] of variants.entries()) {
      await c.attack(name, async () => {
        must(body !== text, 'the test could not plant the value');
        const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
        writeFileSync(file, body);
        // The first through the CLI as a user runs it; the others in-process (same check, no spawn).
        if (i === 0)
          mustFailCleanly(await runCli(['sessions', 'import', file, '--db', join(dir, 'deep.db')]), /deep|depth|nest/i);
        else mustBeClearWriteError(() => checkHistory(JSON.parse(body), file), /deep|depth|nest/i);
      });
    }
    // Issue 40: the route-table and provider-spec loaders scan for duplicate keys with a recursive parser; a file
    // this deep ended there in a stack trace and exit 70. They meet the same depth limit first now.
    const deepTable = join(dir, 'routes-deep.json');
    writeFileSync(deepTable, `{"version":1,"routes":${deep(100_000)}}`);
    await c.attack('route table 100k deep (check --routes)', async () =>
      mustFailCleanly(await runCli(['check', '--routes', deepTable]), /deep|depth|nest/i),
    );
    const deepSpec = join(dir, 'deep.json');
    writeFileSync(deepSpec, `{"id":"deep","rejections":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`);
    await c.attack('provider spec 100k deep', () =>
      mustBeClearWriteError(() => loadProviderSpec(deepSpec), /deep|depth|nest/i),
    );
    expect(c.done()).toEqual([]);
  }, 60_000);

  it('I2 damaged state.db rows are answered with exit 2 naming the session and turn', async () => {
    const c = new AttackClass('I2 damaged state.db rows');
    const dir = tmp('rows');
    const seed = (name: string, damage: (db: Database.Database) => void) => {
      const file = join(dir, `${name}.db`);
      const store = SessionStore.open(file);
      store.importHistory(sampleHistoryWithEveryCarrier());
      store.close();
      const db = new Database(file);
      damage(db);
      db.close();
      return file;
    };
    const cases: Array<[string, (db: Database.Database) => void, RegExp]> = [
      // Through the CLI once (exit code and one line); the rest in-process against the same store.
      [
        'tool_calls = 42',
        (db) => db.prepare("UPDATE turns SET tool_calls = '42' WHERE session_id = 1 AND tool_calls IS NOT NULL").run(),
        /session 1.*turn \d+|turn \d+.*session 1/i,
      ],
      [
        'non-JSON model_config',
        (db) => db.prepare("UPDATE sessions SET model_config = 'not json{' WHERE id = 1").run(),
        /session 1/i,
      ],
      [
        'content not JSON',
        (db) => db.prepare("UPDATE turns SET content = 'plain' WHERE session_id = 1 AND seq = 2").run(),
        /session 1.*turn 2|turn 2.*session 1/i,
      ],
      [
        'role = wizard via a dropped CHECK',
        (db) =>
          db.exec(
            "PRAGMA ignore_check_constraints = ON; UPDATE turns SET role = 'wizard' WHERE session_id = 1 AND seq = 1",
          ),
        /session 1.*turn 1|turn 1.*session 1/i,
      ],
      ['dropped turns table', (db) => db.exec('DROP TABLE turns'), /turns|damaged|table/i],
      [
        'a row over the size limit',
        (db) =>
          db
            .prepare('UPDATE turns SET reasoning_content = ? WHERE session_id = 1 AND seq = 3')
            .run(JSON.stringify('r'.repeat(2 * 1024 * 1024))),
        /session 1.*turn 3|turn 3.*session 1/i,
      ],
    ];
    for (const [i, [name, damage, about]] of cases.entries()) {
      await c.attack(name, async () => {
        const file = seed(name.replace(/\W+/g, '-'), damage);
        if (i === 0) {
          const r = await runCli(['sessions', 'show', '1', '--db', file]);
          mustFailCleanly(r, about);
          must(r.code === 2, `exit ${r.code}`);
          return;
        }
        mustBeClearWriteError(() => {
          const store = SessionStore.open(file, { mustExist: true });
          store.maxRowCharacters = 1024 * 1024; // the 64 MB default, scaled down with the row
          try {
            store.resume(1);
          } finally {
            store.close();
          }
        }, about);
      });
    }
    expect(c.done()).toEqual([]);
  }, 60_000);

  describe('serve', () => {
    const inputs = loadMatrixInputs({});
    const providers = ['deepseek', 'anthropic', 'gemini', 'openai-responses', 'openrouter'].filter((id) =>
      inputs.specs.some((s) => s.id === id),
    );
    const pathOf = (id: string) => `/${id}${inputs.specs.find((s) => s.id === id)!.endpoint.path}`;

    it('I3 bodies of the wrong shape get a 4xx, never a 200 or a crash', async () => {
      const c = new AttackClass('I3 serve: wrong-shape bodies');
      const log: ServeLogEntry[] = [];
      const serve = await startServe({
        port: 0,
        specs: inputs.specs,
        fixtures: inputs.fixtures,
        table: inputs.table,
        defaultScenario: 'plain-two-turn-chat',
        log: (e) => log.push(e),
      });
      for (const id of providers) {
        for (const body of ['[1,2,3]', '{}', 'null', '"text"', '42', '{"messages":7}', 'not json']) {
          await c.attack(`${id} ${body}`, async () => {
            const r = await post(serve.url + pathOf(id), body);
            must(r.status >= 400 && r.status < 500, `status ${r.status}`);
          });
        }
      }
      await serve.close();
      expect(c.done()).toEqual([]);
    }, 60_000);

    it('I4 a body over the documented limit is answered 413', async () => {
      const c = new AttackClass('I4 serve: body size limit');
      const serve = await startServe({
        port: 0,
        specs: inputs.specs,
        fixtures: inputs.fixtures,
        table: inputs.table,
        defaultScenario: 'plain-two-turn-chat',
        log: () => {},
      });
      await c.attack('a 40 MB body', async () => {
        const big = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(40 * 1024 * 1024) }] });
        const r = await post(serve.url + pathOf('deepseek'), big);
        must(r.status === 413, `status ${r.status}`);
      });
      await c.attack('a declared content-length over the limit is refused before reading', async () => {
        const r = await post(
          serve.url + pathOf('deepseek'),
          '{}',
          { 'content-length': String(1024 * 1024 * 1024) },
          true,
        );
        must(r.status === 413, `status ${r.status}`);
      });
      await serve.close();
      expect(c.done()).toEqual([]);
    }, 60_000);

    it('I5 a body 10k levels deep is answered and logged', async () => {
      const c = new AttackClass('I5 serve: deep bodies');
      const log: ServeLogEntry[] = [];
      const serve = await startServe({
        port: 0,
        specs: inputs.specs,
        fixtures: inputs.fixtures,
        table: inputs.table,
        defaultScenario: 'plain-two-turn-chat',
        log: (e) => log.push(e),
      });
      for (const id of providers) {
        await c.attack(`${id}: messages[0].content 10k deep`, async () => {
          const before = log.length;
          const body = `{"model":"m","messages":[{"role":"user","content":${deep(10_000, 'x')}}],"contents":[{"role":"user","parts":${deep(10_000)}}],"input":${deep(10_000)}}`;
          const r = await post(serve.url + pathOf(id), body);
          must(r.status >= 400 && r.status < 500, `status ${r.status}`);
          must(log.length === before + 1, 'not logged');
        });
      }
      await serve.close();
      expect(c.done()).toEqual([]);
    }, 60_000);
  });
});

function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  lieAboutLength = false,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(lieAboutLength ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => resolve({ status: 0, body: `connection error: ${err.message}` }));
    // A server that waits for a body it will never get must not hang the suite.
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
    if (lieAboutLength) req.end();
    else req.end(body);
  });
}

/** A shell command started in the background, waited for synchronously. */
function execFileAsync(command: string): { wait(): void } {
  const marker = join(tmpdir(), `rr-attack-bg-${process.pid}-${Date.now()}`);
  execFileSync('sh', ['-c', `(${command}; touch ${marker}) >/dev/null 2>&1 &`]);
  return {
    wait() {
      for (let i = 0; i < 200 && !existsSync(marker); i++) execFileSync('sleep', ['0.02']);
    },
  };
}
