import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/shared/project-root.js';

// `reasoning-replay real-world | head -1`: the reader closes the pipe after one line. The launcher
// must end quietly, not print Node's unhandled 'error' event with a stack trace.
describe('bin/reasoning-replay.js into a pipe closed early', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-closed-pipe-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints no EPIPE and no stack trace', () => {
    const bin = join(projectRoot(), 'bin', 'reasoning-replay.js');
    const errFile = join(dir, 'stderr.txt');
    const run = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" real-world 2>"${errFile}" | head -1`], {
      encoding: 'utf8',
    });
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    const stderr = readFileSync(errFile, 'utf8');
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
