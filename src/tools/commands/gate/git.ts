import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ignore from 'ignore';
import { InputError } from '../../../shared/errors/input-error.js';

/** Runs git and returns stdout, or undefined when git exits non-zero. A missing git binary is bad input. */
function git(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { status?: number };
    if (e.code === 'ENOENT')
      throw new InputError(
        '--base',
        '',
        'git is not installed or not on PATH',
        'install git, or run check without --base',
      );
    return undefined;
  }
}

/** The repository the gate compares in: the git toplevel of `cwd`. */
export function gitToplevel(cwd: string): string {
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  if (top === undefined)
    throw new InputError(
      cwd,
      '',
      'is not inside a git repository',
      'run `check --base` from a clone of the repository (or drop --base)',
    );
  return top.trim();
}

/** Resolves a ref to a commit id, or says plainly that it does not exist. */
export function resolveCommit(top: string, ref: string): string {
  const sha = git(top, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (sha === undefined || sha.trim() === '') {
    throw new InputError(
      '--base',
      '',
      `git ref "${ref}" does not exist in ${top}`,
      'fetch it first (in GitHub Actions: actions/checkout with fetch-depth: 0), e.g. --base origin/main',
    );
  }
  return sha.trim();
}

/** A file's content at a commit, or undefined when the commit has no such file. */
export function showAtCommit(top: string, sha: string, path: string): string | undefined {
  if (git(top, ['cat-file', '-e', `${sha}:${path}`]) === undefined) return undefined;
  return git(top, ['show', `${sha}:${path}`]);
}

/**
 * Paths (relative to the toplevel) that differ between a commit and the working tree: staged, unstaged and untracked.
 */
export function changedSince(top: string, sha: string): string[] {
  const tracked = git(top, ['diff', '--name-only', '-z', sha, '--']) ?? '';
  const untracked = git(top, ['ls-files', '--others', '--exclude-standard', '-z']) ?? '';
  return [...new Set([...tracked.split('\0'), ...untracked.split('\0')].filter(Boolean))].sort();
}

/** Paths with uncommitted changes (tracked or untracked, ignored files excluded). */
export function uncommittedPaths(top: string): string[] {
  const out = git(top, ['status', '--porcelain=v1', '-z', '--untracked-files=all']) ?? '';
  const paths: string[] = [];
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    const path = entry.slice(3);
    // A rename entry is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') i++;
    if (entry.startsWith('??') && isIgnoredDirectoryLink(top, path)) continue;
    paths.push(path);
  }
  return paths.sort();
}

/**
 * git treats a symlink as a file, so the usual `node_modules/` rule (directories only) does not
 * ignore a symlinked node_modules, and `git check-ignore` refuses to look past a link. A link that
 * points at a directory is ignored here when the ignore rules would ignore a directory of that name:
 * what the user meant by the rule. Rules come from the .gitignore files on the way down and from
 * .git/info/exclude, read by the `ignore` package (gitignore semantics, maintained).
 */
function isIgnoredDirectoryLink(top: string, path: string): boolean {
  const clean = path.replace(/\/$/, '');
  const full = join(top, clean);
  try {
    if (!lstatSync(full).isSymbolicLink() || !statSync(full).isDirectory()) return false;
  } catch {
    return false;
  }
  const rules: Array<{ base: string; text: string }> = [];
  const exclude = join(top, '.git', 'info', 'exclude');
  if (existsSync(exclude)) rules.push({ base: '', text: readFileSync(exclude, 'utf8') });
  const segments = clean.split('/');
  for (let depth = 0; depth < segments.length; depth++) {
    const base = segments.slice(0, depth).join('/');
    const file = join(top, base, '.gitignore');
    if (existsSync(file)) rules.push({ base, text: readFileSync(file, 'utf8') });
  }
  let ignored = false;
  for (const { base, text } of rules) {
    const rel = base ? clean.slice(base.length + 1) : clean;
    const matcher = ignore().add(text);
    const verdict = matcher.test(`${rel}/`);
    if (verdict.ignored) ignored = true;
    if (verdict.unignored) ignored = false;
  }
  return ignored;
}
