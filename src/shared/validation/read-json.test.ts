import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { readJsonFile } from './read-json.js';

const dir = mkdtempSync(join(tmpdir(), 'rr-read-json-'));

/**
 * Issue 27: a file over V8's longest string (about 512 MiB) failed as `cannot read
 * (ERR_STRING_TOO_LONG)`. Its size is checked before it is read, and the line names the size and
 * the limit. The limit is lowered here instead of writing 512 MiB.
 */
describe('readJsonFile on a file over the size limit', () => {
  it('refuses it before reading, naming its size and the limit', () => {
    const file = join(dir, 'big.json');
    const text = JSON.stringify({ pad: 'x'.repeat(3000) });
    writeFileSync(file, text);
    let caught: unknown;
    try {
      readJsonFile(file, { maxBytes: 2048 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    const message = (caught as InputError).message;
    expect(message).toContain(`${text.length} bytes`);
    expect(message).toContain('2048 bytes');
    expect(message).not.toContain('\n');
  });

  it('reads a file at the limit', () => {
    const file = join(dir, 'exact.json');
    const text = JSON.stringify({ pad: 'y'.repeat(100) });
    writeFileSync(file, text);
    expect(readJsonFile(file, { maxBytes: text.length })).toEqual({ pad: 'y'.repeat(100) });
  });
});

/** A merge that left two `models` members in a spec lost the first without a word: the loaders now refuse it. */
describe('readJsonFile with refuseDuplicateKeys', () => {
  it('refuses a key named twice, with the pointer, the line and a hint', () => {
    const file = join(dir, 'twice.json');
    writeFileSync(file, '{\n  "models": {"refuses": []},\n  "id": "x",\n  "models": {"variants": []}\n}\n');
    expect(() => readJsonFile(file, { refuseDuplicateKeys: true })).toThrow(
      /twice\.json: the key "models" is named twice \(line 4\); only the last would be read \(hint: merge the two into one\)/,
    );
    expect(readJsonFile(file)).toEqual({ models: { variants: [] }, id: 'x' });
  });
});
