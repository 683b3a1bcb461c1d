import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../shared/project-root.js';
import { startFakeProvider, type FakeProvider } from '../../services/recorder/fake-provider.test-helper.js';

/**
 * Issue 27, from the CLI: `record` with its spool folder (TMPDIR) on a full disk printed a line and
 * then hung on the provider's open connection. A real full disk: a 256 kB tmpfs mounted in a user
 * and mount namespace (`unshare -rm`), so nothing outside this process tree sees it. Where
 * namespaces are not allowed the test is skipped; record-scenario.test.ts covers the same failure
 * through the spool's write seam everywhere.
 */
const canMount =
  process.platform === 'linux' &&
  spawnSync('unshare', ['-rm', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"'])
    .status === 0;

let server: FakeProvider | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  // A recording that hangs (the bug) is not left running after the test gave up on it.
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
  await server?.close();
  server = undefined;
});

describe.skipIf(!canMount)('record with TMPDIR on a full disk (built CLI, tmpfs)', () => {
  it('exits 2 with one line saying the temp folder is full, and writes nothing', async () => {
    server = await startFakeProvider({ tier: 'must-echo', extraDeltas: 6000 });
    const tiny = mkdtempSync(join(tmpdir(), 'rr-tiny-tmp-'));
    const out = mkdtempSync(join(tmpdir(), 'rr-full-out-'));
    const cli = [
      process.execPath,
      join(projectRoot(), 'bin', 'reasoning-replay.js'),
      'record',
      '--provider',
      'deepseek',
      '--base-url',
      server.baseUrl,
      '--model',
      'deepseek-v4-flash',
      '--scenario',
      'tool-call-with-reasoning',
      '--stream',
      '--out',
      out,
    ].map((a) => `'${a}'`);
    child = spawn(
      'unshare',
      ['-rm', 'sh', '-c', `mount -t tmpfs -o size=256k tmpfs '${tiny}' && exec ${cli.join(' ')}`],
      {
        env: { PATH: process.env.PATH, TMPDIR: tiny, DEEPSEEK_API_KEY: 'sk-full-disk-t3st-4f9Qx2LmN8rT1vYb' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    // Before the fix the process never exited: the test's own timeout is what fails it.
    const code = await new Promise<number | null>((resolve) => child!.on('close', resolve));
    expect(code, stderr).toBe(2);
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
    expect(stderr).toMatch(/the disk is full .*TMPDIR/);
    expect(existsSync(join(out, 'deepseek'))).toBe(false);
  }, 30_000);
});
