import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { defaultProvidersDir, loadProviderSpec, loadProviderSpecs } from './load-provider-specs.js';

/** A bundled spec, edited and written to a scratch directory under the given file name. */
const dir = mkdtempSync(join(tmpdir(), 'provider-specs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- edited freely to break it
function bundled(id: string): Record<string, any> {
  return JSON.parse(readFileSync(join(defaultProvidersDir(), `${id}.json`), 'utf8'));
}

function writeSpec(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('loadProviderSpec', () => {
  // Issue 40: a spec nested 100,000 deep overflowed the stack in the duplicate-key scan (exit 70, a stack trace),
  // while a history file of the same depth was one line. Both are refused by the same depth limit now.
  it('refuses a spec nested 100,000 levels deep in one line naming the file and a hint', () => {
    const file = writeSpec('deep.json', `{"id":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`);
    const err = inputErrorOf(() => loadProviderSpec(file));
    expect(err.message).toContain(file);
    expect(err.problem).toBe('nests deeper than 256 levels');
    expect(err.pointer.startsWith('/id/a/a/')).toBe(true);
    expect(err.message).toMatch(/\(hint: .+\)$/);
    expect(err.message).not.toContain('\n');
  });

  it('refuses broken JSON nested 100,000 deep in one line, without a position it cannot find', () => {
    const file = writeSpec('deep-broken.json', `${'['.repeat(100_000)}1,${']'.repeat(100_000)}`);
    const err = inputErrorOf(() => loadProviderSpec(file));
    expect(err.message).toContain(file);
    expect(err.problem).toMatch(/^not valid JSON/);
    expect(err.message).not.toContain('\n');
  });

  it('loads an unchanged bundled spec', () => {
    expect(loadProviderSpec(writeSpec('groq.json', bundled('groq'))).id).toBe('groq');
  });

  it('names file and pointer when a rule refers to a rejection that is not defined', () => {
    const spec = bundled('deepseek');
    spec.echo[0].rejection = 'no-such-rejection';
    const file = writeSpec('deepseek.json', spec);
    const error = inputErrorOf(() => loadProviderSpec(file));
    expect(error.file).toBe(file);
    expect(error.pointer).toBe('/echo/0/rejection');
    expect(error.message).toContain('"no-such-rejection"');
    expect(error.message).toContain('reasoning-content-not-passed-back');
  });

  it('checks the top-level unknown-field rejection reference too', () => {
    const spec = bundled('openai');
    spec.request.unknownTopLevelRejection = 'missing';
    expect(inputErrorOf(() => loadProviderSpec(writeSpec('openai.json', spec))).pointer).toBe(
      '/request/unknownTopLevelRejection',
    );
  });

  it('refuses an id that differs from its file name', () => {
    const file = writeSpec('mistral-eu.json', bundled('mistral'));
    const error = inputErrorOf(() => loadProviderSpec(file));
    expect(error.pointer).toBe('/id');
    expect(error.message).toContain(file);
    expect(error.message).toContain('"mistral"');
  });

  it('names the pointer of a schema error', () => {
    const spec = bundled('cerebras');
    spec.rejections['property-unsupported'].status = 200;
    const file = writeSpec('cerebras.json', spec);
    const error = inputErrorOf(() => loadProviderSpec(file));
    expect(error.file).toBe(file);
    expect(error.pointer).toBe('/rejections/property-unsupported/status');
  });

  it('refuses a wording that is neither verbatim nor unknown', () => {
    const spec = bundled('mimo');
    spec.rejections['reasoning-content-not-passed-back'].wording = 'paraphrased';
    expect(inputErrorOf(() => loadProviderSpec(writeSpec('mimo.json', spec))).pointer).toBe(
      '/rejections/reasoning-content-not-passed-back/wording',
    );
  });

  it('names an unexpected key in an echo rule', () => {
    const spec = bundled('moonshot');
    spec.echo[0].mandatory = true;
    const error = inputErrorOf(() => loadProviderSpec(writeSpec('moonshot.json', spec)));
    expect(error.pointer).toBe('/echo/0/mandatory');
  });

  it('reports malformed JSON with the file', () => {
    const file = writeSpec('broken.json', '{ "id": "broken", ');
    expect(inputErrorOf(() => loadProviderSpec(file)).file).toBe(file);
  });
});

describe('loadProviderSpecs', () => {
  it('loads every bundled spec, sorted by id, each id its file name', () => {
    const ids = loadProviderSpecs().map((s) => s.id);
    expect(ids.length).toBeGreaterThanOrEqual(22);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });
});
