import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { loadFaultCatalogue, selectFaults, type FaultCatalogue } from './fault-catalogue.js';

const bundled = loadFaultCatalogue();
const dir = mkdtempSync(join(tmpdir(), 'rr-faults-'));
const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
const errorOf = (f: () => unknown): InputError => {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no InputError');
};

describe('specs/faults.json', () => {
  it('names at least the faults issue 42 lists, each with a source it was read from', () => {
    const at = (kind: string) =>
      bundled.faults.filter((f) => f.inject.kind === kind || ('at' in f.inject && f.inject.at === kind));
    for (const point of ['before-signature', 'mid-signature', 'after-signature', 'before-tool-call'])
      expect(at(point).length, point).toBeGreaterThan(0);
    for (const family of ['anthropic-messages', 'bedrock-converse', 'gemini', 'openai-responses', 'openai-chat'])
      expect(bundled.faults.some((f) => f.inject.kind === 'stream-cut' && f.families.includes(family as never))).toBe(
        true,
      );
    expect(new Set(at('http-error').map((f) => (f.inject as { status: number }).status))).toEqual(
      new Set([429, 529, 500]),
    );
    expect(at('upstream-switch').length).toBe(1);
    expect(at('model-fallback').length).toBe(1);
    for (const fault of bundled.faults) {
      for (const s of fault.sources) expect(s.url).toMatch(/^https:\/\//);
      // A quoted refusal is taken from a source.
      if (fault.refusal) expect(fault.refusal.url).toMatch(/^https:\/\//);
    }
  });

  it('a 429 fault carries Retry-After', () => {
    const limited = bundled.faults.find((f) => f.inject.kind === 'http-error' && f.inject.status === 429)!;
    expect(limited.inject.kind === 'http-error' && limited.inject.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('loading and selecting faults', () => {
  const one = bundled.faults[0]!;

  it('refuses a fault named twice, at its pointer', () => {
    const file = write('twice.json', { faults: [one, one] } satisfies FaultCatalogue);
    expect(errorOf(() => loadFaultCatalogue(file)).pointer).toBe('/faults/1/name');
  });

  it('refuses a fault without sources, and an error fault without a default body, by the schema', () => {
    const noSources = write('nosources.json', { faults: [{ ...one, sources: [] }] });
    expect(errorOf(() => loadFaultCatalogue(noSources)).message).toMatch(/sources/);
    const http = bundled.faults.find((f) => f.inject.kind === 'http-error')!;
    const inject = { ...http.inject, bodies: { 'anthropic-messages': {} } };
    const noDefault = write('nodefault.json', { faults: [{ ...http, inject }] });
    expect(() => loadFaultCatalogue(noDefault)).toThrow(InputError);
  });

  it('selects by name or all; an unknown name lists the known ones', () => {
    expect(selectFaults(`${one.name}, ${bundled.faults[1]!.name}`).map((f) => f.name)).toEqual([
      one.name,
      bundled.faults[1]!.name,
    ]);
    expect(selectFaults('all')).toHaveLength(bundled.faults.length);
    const e = errorOf(() => selectFaults('no-such-fault'));
    expect(e.file).toBe('--faults');
    expect(e.message).toContain(one.name);
  });
});
