import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * The README and the guides name files that exist, and the README's Layout lists every folder of
 * the floor plan. Decision records are left out of the path check: a record names the files of its
 * time (0035 says where things are now).
 */
const root = projectRoot();

function markdownFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) return rel === 'docs/decisions' ? [] : markdownFiles(rel);
    return rel.endsWith('.md') ? [rel] : [];
  });
}

const REPO_PATH = /(?<![\w./-])((?:src|test|bench|specs|fixtures|examples|bin|docs)\/[\w./<>{}*@+-]*)/g;
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;
const placeholder = (p: string) => /[<>{}*]/.test(p);

/** Paths that point outside the repository: a machine's folders, or a climb above the root. */
const OUTSIDE = /(?<![\w.-])(?:\/(?:work|home|Users|root|mnt)\/[\w./-]+|(?:\.\.\/)+shared\b[\w./-]*)/g;

function missingPaths(file: string, text: string): string[] {
  const missing: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(OUTSIDE)) missing.push(`${file}:${i + 1}: outside the repository: ${m[0]}`);
    for (const m of line.matchAll(REPO_PATH)) {
      const path = m[1]!.replace(/[.,:;)]+$/, '');
      if (!placeholder(path) && !existsSync(join(root, path))) missing.push(`${file}:${i + 1}: ${path}`);
    }
    for (const m of line.matchAll(LINK)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target) || placeholder(target)) continue;
      const resolved = normalize(join(dirname(file), target));
      if (resolved.startsWith('..')) missing.push(`${file}:${i + 1}: link ${target} climbs out of the repository`);
      else if (!existsSync(join(root, resolved))) missing.push(`${file}:${i + 1}: link ${target} (${resolved})`);
    }
  });
  return missing;
}

/** The folders the README's Layout block names, as paths from the indentation of its tree. */
function layoutFolders(readme: string): string[] {
  const section = readme.slice(readme.indexOf('## Layout'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const stack: string[] = [];
  const folders: string[] = [];
  for (const line of block.split('\n')) {
    const m = /^( *)(\.?[\w-]+)\/(?:\s|$)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 2;
    stack.length = depth;
    stack[depth] = m[2]!;
    folders.push(stack.join('/'));
  }
  return folders;
}

/** Every folder of the plan: the top level, src/<side>/<folder> and test/<folder>. */
function planFolders(): string[] {
  const dirs = (rel: string) =>
    readdirSync(join(root, rel)).filter((n) => statSync(join(root, rel, n)).isDirectory() && n !== '__fixtures__');
  const top = ['src', 'test', 'bench', 'bin', 'docs', 'examples', 'specs', 'fixtures', 'reports', '.ci'];
  const sides = dirs('src').map((s) => `src/${s}`);
  return [
    ...top,
    ...sides,
    ...sides.flatMap((s) => dirs(s).map((d) => `${s}/${d}`)),
    ...dirs('test').map((d) => `test/${d}`),
  ].sort();
}

describe('paths the documentation names', () => {
  it('every repository path and relative link in README.md and docs/ (decisions aside) exists, inside the repository', () => {
    const files = ['README.md', ...markdownFiles('docs')];
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((f) => missingPaths(f, readFileSync(join(root, f), 'utf8')))).toEqual([]);
  });

  it('the check sees a path that does not exist, in prose and in a link', () => {
    expect(missingPaths('docs/x.md', 'see `src/model/history.ts` and [a](nowhere.md), not `src/<f>/`')).toEqual([
      'docs/x.md:1: src/model/history.ts',
      'docs/x.md:1: link nowhere.md (docs/nowhere.md)',
    ]);
  });

  it('the check sees a path outside the repository, named or linked', () => {
    const text = 'notes in /home/build/reference/a.md, `../shared/real-traffic/` and [r](../../x.md)';
    expect(missingPaths('docs/x.md', text)).toEqual([
      'docs/x.md:1: outside the repository: /home/build/reference/a.md',
      'docs/x.md:1: outside the repository: ../shared/real-traffic/',
      'docs/x.md:1: link ../../x.md climbs out of the repository',
    ]);
  });

  it("the README's Layout lists every folder of the plan, and only folders that exist", () => {
    const listed = layoutFolders(readFileSync(join(root, 'README.md'), 'utf8'));
    const plan = planFolders();
    expect(plan.filter((f) => !listed.includes(f))).toEqual([]);
    expect(listed.filter((f) => !existsSync(join(root, f)))).toEqual([]);
  });
});
