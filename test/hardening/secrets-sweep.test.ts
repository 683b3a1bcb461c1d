/**
 * No secret in anything the project ships as data: every file under fixtures/ and reports/ (tracked
 * and untracked, as git sees them) is swept with the recorder's own credential patterns
 * (src/tools/services/recorder/secret-patterns.ts, one list for both). Signed and encrypted reasoning is long
 * base64 and must pass; a key planted anywhere in a real fixture must not.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { projectRoot } from '../../src/shared/project-root.js';
import {
  findSecretsInText,
  sweepForSecrets,
  type SecretFinding,
} from '../../src/tools/services/recorder/secret-patterns.js';
import { applyMutation, pathsOf } from './mutate-json.test-helper.js';

const RUNS = Math.max(200, Number(process.env.FC_RUNS) || 200);
const root = projectRoot();
const SWEPT = ['fixtures', 'reports'];

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Tracked and untracked (not ignored) files under the swept folders; a plain walk outside a git checkout. */
function sweptFiles(): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...SWEPT], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return [...new Set(out.split('\0').filter(Boolean))]
      .map((f) => join(root, f))
      .filter((f) => {
        try {
          return statSync(f).isFile();
        } catch {
          return false; // deleted in the working tree
        }
      });
  } catch {
    return SWEPT.flatMap((d) => walk(join(root, d)));
  }
}

/** Every finding in one file: in the parsed JSON (escapes undone, object keys included) and in the raw text. */
function sweepFile(file: string): SecretFinding[] {
  const text = readFileSync(file, 'utf8');
  const found: SecretFinding[] = findSecretsInText(text).map((m) => ({ ...m, pointer: '(text)' }));
  if (file.endsWith('.json')) {
    try {
      found.push(...sweepForSecrets(JSON.parse(text)));
    } catch {
      /* not JSON after all: the text sweep above covers it */
    }
  }
  return found;
}

/** Strings that hold signed or encrypted reasoning in the fixtures, found by their key. */
const OPAQUE_KEYS = new Set([
  'signature',
  'data',
  'encrypted_content',
  'thoughtSignature',
  'thought_signature',
  'reasoning_opaque',
  'redactedContent',
]);
function opaqueStrings(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return OPAQUE_KEYS.has(key) && value.length >= 16 ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => opaqueStrings(v, key));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => opaqueStrings(v, k));
  return [];
}

const files = sweptFiles();
const fixtureFiles = files.filter((f) => f.includes(`${join('fixtures', 'providers')}`) && f.endsWith('.json'));

describe('secrets sweep over fixtures/ and reports/', () => {
  it('has files to sweep', () => {
    expect(fixtureFiles.length).toBeGreaterThan(10);
    expect(files.some((f) => relative(root, f).startsWith('reports'))).toBe(true);
  });

  it('finds nothing that looks like a live key in any of them', () => {
    const findings = files.flatMap((file) =>
      sweepFile(file).map((f) => `${relative(root, file)} ${f.pointer}: ${f.pattern} ${f.masked}`),
    );
    expect(findings).toEqual([]);
  });

  it('passes the signed and encrypted reasoning the fixtures hold', () => {
    const blobs = fixtureFiles.flatMap((f) => opaqueStrings(JSON.parse(readFileSync(f, 'utf8'))));
    expect(blobs.length).toBeGreaterThan(20);
    expect(blobs.flatMap((b) => findSecretsInText(b))).toEqual([]);
  });
});

/** Credential shapes, assembled at run time so no key-shaped literal sits in the source. */
const alnum = (n: number) =>
  fc.string({
    unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: n,
    maxLength: n,
  });
const upperDigits = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'), minLength: n, maxLength: n });
const aPlantedKey: fc.Arbitrary<string> = fc.oneof(
  alnum(40).map((s) => ['sk', 'proj', s].join('-')),
  alnum(40).map((s) => ['sk', 'ant', 'api03', s].join('-')),
  upperDigits(16).map((s) => 'AK' + 'IA' + s),
  alnum(35).map((s) => 'AI' + 'za' + s),
  alnum(36).map((s) => 'gh' + 'p_' + s),
  alnum(36).map((s) => 'gh' + 'o_' + s),
  alnum(40).map((s) => 'github' + '_pat_' + s),
  alnum(24).map((s) => ['xo' + 'xb', '1234567890', s].join('-')),
  alnum(32).map((s) => `Bearer 9${s}`),
  fc.constant(['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' ')),
);

describe('the sweep can fail', () => {
  test('a key planted in any string of a real fixture is found', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtureFiles),
        fc.nat(),
        aPlantedKey,
        fc.constantFrom('replace', 'prefix', 'suffix'),
        (file, at, key, how) => {
          const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
          const strings = pathsOf(doc).filter((p) => {
            let node: unknown = doc;
            for (const step of p) node = (node as Record<string | number, unknown>)[step];
            return typeof node === 'string';
          });
          const path = strings[at % strings.length]!;
          let original: unknown = doc;
          for (const step of path) original = (original as Record<string | number, unknown>)[step];
          const value =
            how === 'replace' ? key : how === 'prefix' ? `${key} ${String(original)}` : `${String(original)} ${key}`;
          const planted = applyMutation(doc, {
            kind: 'retype',
            at: pathsOf(doc).findIndex((p) => JSON.stringify(p) === JSON.stringify(path)),
            value,
          });
          expect(sweepForSecrets(planted).length).toBeGreaterThan(0);
          expect(findSecretsInText(JSON.stringify(planted, null, 2)).length).toBeGreaterThan(0);
        },
      ),
      {
        numRuns: RUNS,
      },
    );
  });
});
