import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturesDir } from '../../../shared/project-root.js';
import { startFakeProvider, type FakeProvider } from '../../services/recorder/fake-provider.test-helper.js';
import { runCli } from '../../../../test/helpers/run-cli.test-helper.js';

const KEY = 'sk-live-f1rst-run-t3st-4f9Qx2LmN8rT1vYb6KcZ';
const SCENARIO = 'tool-call-with-reasoning';

let fake: FakeProvider | undefined;
let silent: Server | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await new Promise<void>((done) => (silent ? silent.close(() => done()) : done()));
  silent = undefined;
});

/** Accepts every connection and request, and never answers. */
async function silentServer(): Promise<string> {
  silent = createServer(() => {
    /* never answers */
  });
  await new Promise<void>((ready) => silent!.listen(0, '127.0.0.1', ready));
  return `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
}

describe('record / probe on first use', () => {
  it("record's default mode records over a shipped synthesized fixture, as its help says", async () => {
    fake = await startFakeProvider({ tier: 'must-echo', secret: KEY });
    const out = mkdtempSync(join(tmpdir(), 'rr-first-'));
    mkdirSync(join(out, 'deepseek'));
    copyFileSync(join(fixturesDir(), 'deepseek', `${SCENARIO}.json`), join(out, 'deepseek', `${SCENARIO}.json`));
    const r = await runCli(
      [
        'record',
        '--provider',
        'deepseek',
        '--base-url',
        fake.baseUrl,
        '--model',
        'deepseek-v4-flash',
        '--scenario',
        SCENARIO,
        '--out',
        out,
      ],
      { DEEPSEEK_API_KEY: KEY },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('replaced a synthesized fixture');
    expect(JSON.parse(readFileSync(join(out, 'deepseek', `${SCENARIO}.json`), 'utf8')).provenance.kind).toBe(
      'recorded',
    );

    const help = await runCli(['record', '--help']);
    expect(help.stdout).toMatch(/--mode[\s\S]*\[default: "new"\]/);
    expect(help.stdout).toMatch(/--timeout[\s\S]*\[default: 300000\]/);
  }, 60_000);

  it('record gives up on a server that never answers after --timeout (exit 1, nothing written)', async () => {
    const base = await silentServer();
    const out = mkdtempSync(join(tmpdir(), 'rr-timeout-'));
    const r = await runCli(
      [
        'record',
        '--provider',
        'deepseek',
        '--base-url',
        base,
        '--model',
        'deepseek-v4-flash',
        '--scenario',
        SCENARIO,
        '--out',
        out,
        '--timeout',
        '300',
      ],
      {
        DEEPSEEK_API_KEY: KEY,
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no complete answer within 0.3s \(--timeout\)/);
    expect(existsSync(join(out, 'deepseek'))).toBe(false);
  }, 60_000);

  it('probe gives up on a server that never answers after --timeout (exit 1)', async () => {
    const base = await silentServer();
    const r = await runCli(
      ['probe', '--provider', 'deepseek', '--base-url', base, '--model', 'deepseek-v4-flash', '--timeout', '300'],
      { DEEPSEEK_API_KEY: KEY },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no complete answer within 0.3s \(--timeout\)/);
  }, 60_000);
});
