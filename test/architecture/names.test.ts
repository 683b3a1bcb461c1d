import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * Names say what a thing holds (issue 21): no grab-bag folders, one convention for test helpers
 * (`*.test-helper.ts`), and a file named `*-error.ts` is an error class, so it is in src/shared/errors/.
 */
const root = projectRoot();

function walk(dir: string): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    // Installs and caches (the matrices' packages, their links, the Python venvs) are not the project's files.
    if (name === 'node_modules' || name === '.cache' || name === '.installing') continue;
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) {
      dirs.push(rel);
      const inner = walk(rel);
      dirs.push(...inner.dirs);
      files.push(...inner.files);
    } else files.push(rel);
  }
  return { dirs, files };
}

const GRAB_BAGS = /^(testing|tests?|utils?|helpers?|misc|common|lib|stuff|core)$/;

describe('names', () => {
  it('no folder in src/ is a grab-bag (testing/, util/, helpers/, misc/, common/...)', () => {
    const bags = walk('src').dirs.filter((d) => GRAB_BAGS.test(d.split('/').at(-1)!));
    expect(bags).toEqual([]);
  });

  // A clients/ folder holds the unmodified-SDK programs a suite runs as its subjects (any language); test/matrices/
  // is the package of the SDKs and frameworks those suites run, installed on first use.
  it("test/ holds tests, *.test-helper.ts files, the clients/ programs a suite runs and the matrices' package", () => {
    const matrices = /^test\/matrices\/(package\.json|package-lock\.json|\.npmrc)$/;
    expect(
      walk('test').files.filter((f) => !/\.test(-helper)?\.ts$/.test(f) && !/\/clients\//.test(f) && !matrices.test(f)),
    ).toEqual([]);
  });

  it('a source file named *-error.ts is an error, so it lives in src/shared/errors/', () => {
    const stray = walk('src').files.filter((f) => /-error\.ts$/.test(f) && !f.startsWith('src/shared/errors/'));
    expect(stray).toEqual([]);
  });
});
