import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uncoveredRoutes } from '../../../judge/conformance/route-coverage.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { specsDir } from '../../../shared/project-root.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';

/**
 * A throwaway git repository for pull-request-style gate tests (check --base, the GitHub Action): the
 * project's specs/ committed as the base on `main`, ready for a branch that edits the route table.
 */

/** git in `repo` with a fixed identity and no signing, so a developer's git config cannot fail the test. */
export function git(repo: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=gate test', '-c', 'user.email=gate@example.invalid', '-c', 'commit.gpgsign=false', ...args],
    { cwd: repo, encoding: 'utf8' },
  ).trim();
}

/** The project's table minus routes no provider spec covers yet, so the base itself is green. */
export function baseTable(): RouteTable {
  const table = loadRouteTable();
  const uncovered = new Set(uncoveredRoutes(table, loadProviderSpecs()));
  return { ...table, routes: table.routes.filter((r) => !uncovered.has(r.id)) };
}

export function writeTable(repo: string, table: RouteTable): void {
  writeFileSync(join(repo, 'specs', 'routes.json'), JSON.stringify(table, null, 2) + '\n');
}

/**
 * The base repository, committed once per test file and cloned for each test: copying specs/ (over 800 files) and
 * hashing it into a commit cost more than a local clone, which links the objects and checks the files out.
 */
let template: string | undefined;
function baseRepo(): string {
  if (template) return template;
  const repo = mkdtempSync(join(tmpdir(), 'rr-gate-base-'));
  process.once('exit', () => rmSync(repo, { recursive: true, force: true }));
  git(repo, 'init', '-q', '-b', 'main');
  cpSync(specsDir(), join(repo, 'specs'), { recursive: true });
  writeTable(repo, baseTable());
  git(repo, 'add', 'specs');
  git(repo, 'commit', '-q', '-m', 'base');
  return (template = repo);
}

/** Makes the empty folder `repo` a git repository whose one commit on `main` is the project's specs/. */
export function makeGateRepo(repo: string): string {
  git(repo, 'clone', '-q', '--local', baseRepo(), '.');
  return repo;
}
