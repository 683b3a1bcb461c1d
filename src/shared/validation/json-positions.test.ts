import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { specsDir } from '../project-root.js';
import type { InputError } from '../errors/input-error.js';
import { duplicateJsonKeys, jsonPointerLines, lineOfPointer, mayHaveDuplicateJsonKeys } from './json-positions.js';
import { parseJson } from './read-json.js';

describe('jsonPointerLines', () => {
  it('finds member lines by their key and array items by their first character', () => {
    const text = '{\n  "a": 1,\n  "b": [\n    "x",\n    { "c/d": "}" }\n  ],\n  "e~": {}\n}\n';
    const lines = jsonPointerLines(text);
    expect(lines.get('')).toBe(1);
    expect(lines.get('/a')).toBe(2);
    expect(lines.get('/b')).toBe(3);
    expect(lines.get('/b/0')).toBe(4);
    expect(lines.get('/b/1/c~1d')).toBe(5);
    expect(lines.get('/e~0')).toBe(7);
    expect(lineOfPointer(lines, '/b/1/gone')).toBe(5);
  });

  it('points at the real lines of specs/routes.json', () => {
    const text = readFileSync(join(specsDir(), 'routes.json'), 'utf8');
    const table = JSON.parse(text) as { routes: Array<{ id: string }> };
    const lines = jsonPointerLines(text);
    const source = text.split('\n');
    table.routes.forEach((route, i) => {
      expect(source[lines.get(`/routes/${i}/id`)! - 1]).toContain(`"id": "${route.id}"`);
      expect(source[lines.get(`/routes/${i}/tier`)! - 1]).toContain('"tier"');
    });
  });

  test('every pointer it reports resolves in the parsed value, at a line inside the text', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const pretty = JSON.stringify(JSON.parse(text), null, 2);
        const lines = jsonPointerLines(pretty);
        const total = pretty.split('\n').length;
        for (const [pointer, line] of lines) {
          expect(line).toBeGreaterThanOrEqual(1);
          expect(line).toBeLessThanOrEqual(total);
          let v: unknown = JSON.parse(pretty);
          for (const part of pointer.split('/').slice(1))
            v = (v as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
          expect(v).not.toBeUndefined();
        }
      }),
    );
  });
});

describe('parseJson error positions', () => {
  const located = (text: string) => {
    try {
      parseJson(text, 'f.json');
    } catch (err) {
      return (err as InputError).message;
    }
    return 'parsed';
  };

  it.each([
    ['{\n  "a": 1,\n  "b": ,\n}', 3, 8],
    ['{"a": [1, 2,]}', 1, 13],
    ['[\n1\n2]', 3, 1],
    ['{\n  // a comment\n  "a": 1\n}', 2, 3],
    ['{"a": "x"', 1, 10],
    ['', 1, 1],
  ])('%j: line %i, column %i, on every Node version', (text, line, column) => {
    expect(located(text)).toMatch(
      new RegExp(`^f\\.json: not valid JSON at line ${line}, column ${column}: [a-z ]+ \\(hint: `),
    );
  });

  test('a corrupted document is refused with a position inside the text, never a stack trace', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ':', '"', '['), (text, at, junk) => {
        const pretty = JSON.stringify(JSON.parse(text), null, 2);
        const cut = at % (pretty.length + 1);
        const broken = pretty.slice(0, cut) + junk + pretty.slice(cut + 1);
        let valid = true;
        try {
          JSON.parse(broken);
        } catch {
          valid = false;
        }
        if (valid) return;
        const message = located(broken);
        const m = /at line (\d+), column (\d+)/.exec(message);
        if (!m) {
          expect(message).toMatch(/^f\.json: not valid JSON: /);
          return;
        }
        const lines = broken.split('\n');
        expect(Number(m[1])).toBeLessThanOrEqual(lines.length);
        expect(Number(m[2])).toBeLessThanOrEqual((lines[Number(m[1]) - 1]?.length ?? 0) + 1);
      }),
    );
  });
});

describe('duplicateJsonKeys', () => {
  it('names the object, the key and the line of the occurrence JSON.parse keeps', () => {
    const text = '{\n  "models": {"a": 1},\n  "list": [{"x": 1, "x": 2}],\n  "models": {}\n}\n';
    expect(duplicateJsonKeys(text)).toEqual([
      { pointer: '/list/0', key: 'x', line: 3 },
      { pointer: '', key: 'models', line: 4 },
    ]);
  });

  it('finds nothing where each object names a key once, however deep', () => {
    expect(duplicateJsonKeys('{"a": {"a": {"a": [ {"a": 1}, {"a": 2} ]}}}')).toEqual([]);
  });

  test('a key appended twice to any object is found, and only then', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (object, key) => {
        const text = JSON.stringify(object);
        expect(duplicateJsonKeys(text)).toEqual([]);
        const inner = text.slice(1, -1);
        const twice = `{${inner}${inner ? ',' : ''}${JSON.stringify(key)}: 1, ${JSON.stringify(key)}: 2}`;
        const found = duplicateJsonKeys(twice).filter((d) => d.pointer === '');
        expect(found.map((d) => d.key)).toContain(key);
      }),
    );
  });
});

/** JSON texts whose objects are lists of members, so a key may be named twice (and spelt with escapes). */
const jsonTextWithRepeats = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v)),
    fc.array(tie('text'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    fc
      .array(
        fc.tuple(
          // Escaped quotes and backslashes: a quote after an even run of backslashes ends the key.
          fc.constantFrom('a', 'b', '\\u0061', 'a:\\"', '\\"', '', '\\\\', 'c\\\\\\"'),
          fc.constantFrom('', ' ', '\n '),
          tie('text'),
        ),
        {
          maxLength: 5,
        },
      )
      .map((members) => `{${members.map(([key, space, value]) => `"${key}"${space}:${space}${value}`).join(',')}}`),
  ),
})).text;

describe('mayHaveDuplicateJsonKeys', () => {
  test('says yes exactly when duplicateJsonKeys finds a key named twice', () => {
    fc.assert(
      fc.property(jsonTextWithRepeats, (text) => {
        expect(mayHaveDuplicateJsonKeys(text, JSON.parse(text))).toBe(duplicateJsonKeys(text).length > 0);
      }),
    );
  });

  it('counts an escaped spelling of a key as the same key, and a key-like string value as no key', () => {
    expect(mayHaveDuplicateJsonKeys('{"a": 1, "\\u0061": 2}', { a: 2 })).toBe(true);
    const text = '{"a": "b\\":", "c": ["d", ":"]}';
    expect(mayHaveDuplicateJsonKeys(text, JSON.parse(text))).toBe(false);
  });
});

describe('the committed data', () => {
  it('names no key twice in any provider spec, scenario, case or route table', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(specsDir(), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(400);
    const found = files.flatMap((f) =>
      duplicateJsonKeys(readFileSync(join(specsDir(), f), 'utf8')).map((d) => `${f}${d.pointer}: ${d.key}`),
    );
    expect(found).toEqual([]);
  });
});
