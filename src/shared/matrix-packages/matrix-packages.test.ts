import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';
import {
  ensureMatrixPackages,
  LINKED_FOLDERS,
  matrixPackageNames,
  matrixPackagesInstalled,
  packageNameOf,
} from './matrix-packages.js';

/** A project root in a temp folder with a matrices package of one dependency; `install` stands in for npm ci. */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'rr-matrices-'));
  const dir = join(root, 'test', 'matrices');
  mkdirSync(dir, { recursive: true });
  for (const folder of LINKED_FOLDERS) mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ devDependencies: { 'some-sdk': '1.0.0' } }));
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"v":1}');
  const installs: string[] = [];
  const lines: string[] = [];
  const install = (at: string) => {
    installs.push(at);
    mkdirSync(join(at, 'node_modules', 'some-sdk'), { recursive: true });
    return { ok: true as const };
  };
  return { root, dir, installs, lines, options: { dir, root, install, say: (l: string) => lines.push(l) } };
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ensureMatrixPackages', () => {
  it('installs on first use with a visible line, reuses the install after, and reinstalls when the lockfile changes', () => {
    const p = project();
    made.push(p.root);
    expect(matrixPackagesInstalled(p.dir)).toBe(false);
    expect(ensureMatrixPackages(p.options)).toBe(join(p.dir, 'node_modules'));
    expect(p.installs).toEqual([p.dir]);
    expect(p.lines).toEqual([
      `installing the matrices' packages (first use) into ${join('test', 'matrices', 'node_modules')} ...`,
    ]);
    expect(matrixPackagesInstalled(p.dir)).toBe(true);

    ensureMatrixPackages(p.options);
    expect(p.installs).toHaveLength(1);
    expect(p.lines).toHaveLength(1);

    writeFileSync(join(p.dir, 'package-lock.json'), '{"lockfileVersion":3,"v":2}');
    expect(matrixPackagesInstalled(p.dir)).toBe(false);
    ensureMatrixPackages(p.options);
    expect(p.installs).toHaveLength(2);
  });

  it('links each folder whose programs import the packages by name, and leaves a real node_modules folder alone', () => {
    const p = project();
    made.push(p.root);
    const real = join(p.root, LINKED_FOLDERS[1], 'node_modules');
    mkdirSync(real);
    ensureMatrixPackages(p.options);
    const link = join(p.root, LINKED_FOLDERS[0], 'node_modules');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(realpathSync(join(link, 'some-sdk'))).toBe(realpathSync(join(p.dir, 'node_modules', 'some-sdk')));
    expect(lstatSync(real).isSymbolicLink()).toBe(false);
    // A dangling link (the install was removed) is made again.
    rmSync(join(p.dir, 'node_modules'), { recursive: true });
    ensureMatrixPackages(p.options);
    expect(existsSync(join(link, 'some-sdk'))).toBe(true);
  });

  it('a program in a linked folder imports the packages by name, as Node resolves them, with no loader flag', () => {
    const p = project();
    made.push(p.root);
    const install = (at: string) => {
      const pkg = join(at, 'node_modules', 'some-sdk');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, 'package.json'), '{"name":"some-sdk","type":"module","exports":"./index.js"}');
      writeFileSync(join(pkg, 'index.js'), 'export const from = "the matrices";\n');
      return { ok: true as const };
    };
    ensureMatrixPackages({ ...p.options, install });
    const program = join(p.root, LINKED_FOLDERS[0], 'frameworks', 'agent.mjs');
    mkdirSync(join(program, '..'), { recursive: true });
    writeFileSync(program, "import { from } from 'some-sdk';\nprocess.stdout.write(from);\n");
    expect(execFileSync(process.execPath, [program], { encoding: 'utf8' })).toBe('the matrices');
  });

  it('a failed install throws with the command to run by hand, and leaves no lock behind', () => {
    const p = project();
    made.push(p.root);
    expect(() => ensureMatrixPackages({ ...p.options, install: () => ({ why: 'npm ci exited 1' }) })).toThrow(
      /could not be installed in .*: npm ci exited 1 \(try: npm ci --prefix /,
    );
    expect(existsSync(join(p.dir, '.installing'))).toBe(false);
    expect(matrixPackagesInstalled(p.dir)).toBe(false);
  });

  it('waits for a live process that holds the lock, and takes over a lock whose owner died', async () => {
    const p = project();
    made.push(p.root);
    const lock = join(p.dir, '.installing');
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    expect(() => ensureMatrixPackages({ ...p.options, waitMs: 600 })).toThrow(
      new RegExp(`another process \\(pid ${process.pid}\\) is still installing`),
    );
    expect(p.installs).toHaveLength(0);

    const child = spawn(process.execPath, ['-e', '0']);
    const dead = child.pid!;
    await new Promise((done) => child.on('exit', done));
    writeFileSync(join(lock, 'pid'), String(dead));
    ensureMatrixPackages(p.options);
    expect(p.installs).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
  });
});

describe('the matrices package', () => {
  it('names its packages by their npm names, aliases included', () => {
    expect(packageNameOf('@ai-sdk/google')).toBe('@ai-sdk/google');
    expect(packageNameOf('@langchain/core/messages')).toBe('@langchain/core');
    expect(packageNameOf('ai-v6/internal')).toBe('ai-v6');
    expect(packageNameOf('./local.js')).toBeUndefined();
    expect(packageNameOf('/abs/file.js')).toBeUndefined();
    expect(packageNameOf('node:fs')).toBeUndefined();
  });

  it('holds no package the root installs, and the root holds none of its packages', () => {
    const root = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const rootNames = new Set([...Object.keys(root.dependencies ?? {}), ...Object.keys(root.devDependencies ?? {})]);
    const names = matrixPackageNames();
    expect(names).toContain('@stryker-mutator/core');
    expect(names.filter((n) => rootNames.has(n))).toEqual([]);
  });
});
