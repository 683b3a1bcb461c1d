import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { loadRouteTable, parseRouteTable } from './load-route-table.js';

const attempt = (text: string) => {
  try {
    parseRouteTable(text, 'routes.json');
    return undefined;
  } catch (err) {
    return err as InputError;
  }
};

describe('parseRouteTable errors', () => {
  it('names line and column for broken JSON', () => {
    const err = attempt('{"version": 1,\n  "routes": [,]}');
    expect(err).toBeInstanceOf(InputError);
    expect(err!.message).toMatch(/^routes\.json: not valid JSON at line 2, column \d+/);
  });

  it('names the JSON pointer of an unexpected property', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [
          {
            id: 'a',
            label: 'a',
            match: { default: true },
            family: 'openai-chat',
            tier: 'standard',
            fields: [],
            feilds: [],
          },
        ],
      }),
    );
    expect(err!.pointer).toBe('/routes/0/feilds');
    expect(err!.problem).toBe('unexpected property "feilds"');
  });

  it('lists the allowed values of an enum', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [{ id: 'a', label: 'a', match: { default: true }, family: 'openai-chat', tier: 'lenient', fields: [] }],
      }),
    );
    expect(err!.pointer).toBe('/routes/0/tier');
    expect(err!.problem).toBe('must be one of "standard", "strict", "must-echo"');
  });

  it('explains a match with no keys', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [{ id: 'a', label: 'a', match: {}, family: 'openai-chat', tier: 'standard', fields: [] }],
      }),
    );
    expect(err!.pointer).toBe('/routes/0/match');
    expect(err!.problem).toContain('providers, hosts, local or default');
  });

  it('passes lint problems through with their pointer and hint', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [
          { id: 'a', label: 'a', match: { providers: ['a'] }, family: 'openai-chat', tier: 'standard', fields: [] },
        ],
      }),
    );
    expect(err!.message).toContain('at /routes/0/match: the last route is not a default');
    expect(err!.hint).toContain('"default": true');
  });
});

// Issue 40: a table nested 100,000 deep overflowed the stack in the duplicate-key scan (exit 70, a stack trace),
// while a history file of the same depth was one line. The table loader now refuses it by the same depth limit.
describe('loadRouteTable on a file nested 100,000 levels deep', () => {
  const dir = mkdtempSync(join(tmpdir(), 'routes-deep-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    try {
      loadRouteTable(file);
    } catch (err) {
      return { file, err: err as InputError };
    }
    throw new Error('expected an InputError');
  };

  it('refuses it in one line naming the file, the pointer and a hint', () => {
    const { file, err } = load('deep.json', `{"routes":${'[{"a":'.repeat(50_000)}1${'}]'.repeat(50_000)}}`);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message.startsWith(`${file} at /routes/0/a/0/`)).toBe(true);
    expect(err.problem).toBe('nests deeper than 256 levels');
    expect(err.message).toMatch(/\(hint: .+\)$/);
    expect(err.message).not.toContain('\n');
  });

  it('refuses broken JSON of that depth in one line', () => {
    const { file, err } = load('deep-broken.json', `${'{"a":'.repeat(100_000)}}`);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message.startsWith(`${file}: not valid JSON`)).toBe(true);
    expect(err.message).not.toContain('\n');
  });
});
