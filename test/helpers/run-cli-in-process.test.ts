import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from './run-cli-in-process.test-helper.js';

describe('the CLI in process', () => {
  it('captures what a command prints and its exit code, and puts cwd, env and the streams back', async () => {
    const cwd = process.cwd();
    const write = process.stdout.write;
    delete process.env.RR_IN_PROCESS_PROBE;
    const bad = await runCliInProcess(['check', '--timeout', '0'], {
      cwd: tmpdir(),
      env: { RR_IN_PROCESS_PROBE: '1' },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--timeout: must be a positive number of milliseconds');
    expect(process.cwd()).toBe(cwd);
    expect(process.env.RR_IN_PROCESS_PROBE).toBeUndefined();
    expect(process.stdout.write).toBe(write);

    const usage = await runCliInProcess(['no-such-command']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^reasoning-replay: /);
  });

  it('refuses overlapping calls: cwd, env and output are process-wide', async () => {
    const first = runCliInProcess(['check', '--timeout', '0']);
    await expect(runCliInProcess(['check', '--timeout', '0'])).rejects.toThrow(/must not overlap/);
    expect((await first).code).toBe(2);
  });
});
