import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * Errors share one base and one place (docs/decisions/0036-errors-in-one-place.md): every error class
 * is one file in src/shared/errors/, named `*Error` after its file, and descends from
 * ReasoningReplayError; shipped code throws no bare Error. The rules run on the real tree (no
 * violation) and on a planted tree (each rule fires), so a rule that stopped matching fails here.
 */
const ERRORS = 'src/shared/errors';
const BASE = 'ReasoningReplayError';
const isTest = (file: string) => /\.test(-helper)?\.ts$/.test(file);

function sources(root: string, dir = 'src'): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) return sources(root, rel);
    return rel.endsWith('.ts') && !isTest(rel) ? [rel] : [];
  });
}

const kebab = (name: string) => name.replace(/(?<!^)([A-Z])/g, '-$1').toLowerCase();

function errorRuleViolations(root: string): string[] {
  const found: string[] = [];
  const parents = new Map<string, string>();
  const perFile = new Map<string, string[]>();
  for (const file of sources(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    text.split('\n').forEach((line, i) => {
      if (/\b(?:new|throw)\s+(?:Type|Range|Syntax|Reference|Eval|URI)?Error\s*\(/.test(line))
        found.push(`${file}:${i + 1}: a bare Error; throw a named error from ${ERRORS}/`);
    });
    for (const m of text.matchAll(/\bclass\s+(\w+)(?:<[^>]*>)?\s+extends\s+(\w+)/g)) {
      const [, name, parent] = m as unknown as [string, string, string];
      const isError = /Error$/.test(name) || /Error$/.test(parent);
      if (!isError) continue;
      if (dirname(file) !== ERRORS) {
        found.push(`${file}: error class ${name} lives outside ${ERRORS}/`);
        continue;
      }
      parents.set(name, parent);
      perFile.set(file, [...(perFile.get(file) ?? []), name]);
      if (!/Error$/.test(name)) found.push(`${file}: error class ${name} is not named *Error`);
    }
  }
  for (const [file, names] of perFile) {
    if (names.length !== 1) found.push(`${file}: ${names.length} error classes in one file (${names.join(', ')})`);
    else if (relative(ERRORS, file) !== `${kebab(names[0]!)}.ts`)
      found.push(`${file}: holds ${names[0]}, so it is named ${kebab(names[0]!)}.ts`);
  }
  for (const name of parents.keys()) {
    const seen = new Set<string>();
    let at = name;
    while (at !== BASE && parents.has(at) && !seen.has(at)) {
      seen.add(at);
      at = parents.get(at)!;
    }
    if (name === BASE ? parents.get(BASE) !== 'Error' : at !== BASE)
      found.push(`${ERRORS}: ${name} does not descend from ${BASE}`);
  }
  if (!parents.has(BASE)) found.push(`${ERRORS}/${kebab(BASE)}.ts: the base ${BASE} is missing`);
  return found;
}

const work = mkdtempSync(join(tmpdir(), 'rr-errors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function plant(files: Record<string, string>): string {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(work, file)), { recursive: true });
    writeFileSync(join(work, file), text);
  }
  return work;
}

describe('errors', () => {
  it('the real tree: every error is one named file under src/shared/errors/, descends from the base, and no bare Error is thrown', () => {
    expect(errorRuleViolations(projectRoot())).toEqual([]);
  });

  it('every class in src/shared/errors/ is, at run time, one ReasoningReplayError per file', async () => {
    const root = projectRoot();
    const { ReasoningReplayError } = await import('../../src/shared/errors/reasoning-replay-error.js');
    const files = readdirSync(join(root, ERRORS)).filter((f) => f.endsWith('.ts') && !isTest(f));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const exported = Object.values(await import(join(root, ERRORS, file))).filter(
        (v): v is abstract new (...args: never[]) => unknown =>
          typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v)),
      );
      expect(exported, file).toHaveLength(1);
      const [cls] = exported;
      if (cls === ReasoningReplayError) continue;
      expect(cls!.prototype, file).toBeInstanceOf(ReasoningReplayError);
    }
  });

  it('each rule fires on a planted tree', () => {
    const root = plant({
      [`${ERRORS}/reasoning-replay-error.ts`]: 'export abstract class ReasoningReplayError extends Error {}\n',
      [`${ERRORS}/good-error.ts`]: 'export class GoodError extends ReasoningReplayError {}\n',
      [`${ERRORS}/unsuffixed.ts`]: 'export class Unsuffixed extends GoodError {}\n',
      [`${ERRORS}/stray-error.ts`]: 'export class StrayError extends Error {}\n',
      [`${ERRORS}/two-error.ts`]:
        'export class TwoError extends GoodError {}\nexport class ThreeError extends GoodError {}\n',
      [`${ERRORS}/misnamed.ts`]: 'export class WellNamedError extends GoodError {}\n',
      'src/engine/a.ts': 'export class LocalError extends Error {}\nexport function f() { throw new Error("x"); }\n',
      'src/tools/b.ts': 'export const e = () => Promise.reject(new TypeError("y"));\n',
      'src/tools/b.test.ts': 'throw new Error("tests may");\nclass T extends Error {}\n',
    });
    const found = errorRuleViolations(root);
    expect(found).toEqual(
      expect.arrayContaining([
        'src/engine/a.ts:2: a bare Error; throw a named error from src/shared/errors/',
        'src/tools/b.ts:1: a bare Error; throw a named error from src/shared/errors/',
        'src/engine/a.ts: error class LocalError lives outside src/shared/errors/',
        `${ERRORS}/unsuffixed.ts: error class Unsuffixed is not named *Error`,
        `${ERRORS}: StrayError does not descend from ReasoningReplayError`,
        `${ERRORS}/two-error.ts: 2 error classes in one file (TwoError, ThreeError)`,
        `${ERRORS}/misnamed.ts: holds WellNamedError, so it is named well-named-error.ts`,
      ]),
    );
    expect(found.filter((f) => f.includes('good-error') || f.includes('b.test.ts'))).toEqual([]);
    rmSync(join(root, ERRORS, 'reasoning-replay-error.ts'));
    expect(errorRuleViolations(root)).toContain(
      `${ERRORS}/reasoning-replay-error.ts: the base ReasoningReplayError is missing`,
    );
  });
});
