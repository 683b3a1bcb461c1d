import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/shared/project-root.js';

// A fresh clone has no dist/: the launcher must say what to do in one line, not print Node's
// module-resolution stack trace.
describe('bin/reasoning-replay.js before a build', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rr-unbuilt-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 2 with one line naming the build command', () => {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(projectRoot(), 'bin', 'reasoning-replay.js'), join(dir, 'bin', 'reasoning-replay.js'));
    const run = spawnSync(process.execPath, [join(dir, 'bin', 'reasoning-replay.js'), '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('npm run build');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
