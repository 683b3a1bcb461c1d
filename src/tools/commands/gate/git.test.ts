import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uncommittedPaths } from './git.js';

const root = mkdtempSync(join(tmpdir(), 'rr-git-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function repo(gitignore: string): string {
  const dir = mkdtempSync(join(root, 'repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  writeFileSync(join(dir, '.gitignore'), gitignore);
  mkdirSync(join(dir, 'pkg'));
  writeFileSync(join(dir, 'pkg', '.gitignore'), 'cache/\n');
  git('add', '.');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return dir;
}

describe('uncommittedPaths (--require-clean)', () => {
  it('does not count a symlinked directory that a directory rule ignores (node_modules/ linked from elsewhere)', () => {
    const dir = repo('node_modules/\n');
    const target = mkdtempSync(join(root, 'modules-'));
    symlinkSync(target, join(dir, 'node_modules'));
    symlinkSync(target, join(dir, 'pkg', 'cache'));
    expect(uncommittedPaths(dir)).toEqual([]);
  });

  it('still counts untracked files, symlinks nothing ignores, and links to files', () => {
    const dir = repo('node_modules/\n!keep/\n');
    const target = mkdtempSync(join(root, 'other-'));
    writeFileSync(join(dir, 'new.txt'), 'x');
    symlinkSync(target, join(dir, 'vendor'));
    writeFileSync(join(root, 'file-target'), 'x');
    symlinkSync(join(root, 'file-target'), join(dir, 'node_modules'));
    expect(uncommittedPaths(dir)).toEqual(['new.txt', 'node_modules', 'vendor']);
  });
});
