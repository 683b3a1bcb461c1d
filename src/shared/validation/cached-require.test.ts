import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWithCodeCache, writeCompiledCode } from './cached-require.js';

/** A generated module past the size the cache starts at, as the precompiled validators are. */
function writeModule(file: string, answer: number): void {
  const filler = Array.from({ length: 9000 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(
    file,
    `'use strict';\n${filler}\nconst path = require('node:path');\nexports.answer = () => ${answer};\nexports.dir = __dirname;\nexports.base = path.basename(__filename);\n`,
  );
}

describe('loadWithCodeCache', () => {
  let dir: string;
  let cache: string;
  const before = process.env.REASONING_REPLAY_CODE_CACHE_DIR;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rr-cached-require-'));
    cache = join(dir, 'cache');
    process.env.REASONING_REPLAY_CODE_CACHE_DIR = cache;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.REASONING_REPLAY_CODE_CACHE_DIR;
    else process.env.REASONING_REPLAY_CODE_CACHE_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the module as require does, then from the code it kept', () => {
    const file = join(dir, 'big.cjs');
    writeModule(file, 42);
    const first = loadWithCodeCache(file);
    expect(first.use).toBe('compiled');
    const exports = first.exports as { answer(): number; dir: string; base: string };
    expect([exports.answer(), exports.dir, exports.base]).toEqual([42, dir, 'big.cjs']);
    writeCompiledCode();
    expect(readdirSync(cache).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
    const second = loadWithCodeCache(file);
    expect(second.use).toBe('from-cache');
    expect((second.exports as { answer(): number }).answer()).toBe(42);
  });

  it('never offers the code of an earlier build of the file', () => {
    const file = join(dir, 'big.cjs');
    writeModule(file, 1);
    loadWithCodeCache(file);
    writeCompiledCode();
    writeModule(file, 2);
    // Same length, new bytes: the build rewrote it.
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const again = loadWithCodeCache(file);
    expect(again.use).toBe('compiled');
    expect((again.exports as { answer(): number }).answer()).toBe(2);
  });

  it('requires a small module as usual, and uses no folder that others can write', () => {
    const small = join(dir, 'small.cjs');
    writeFileSync(small, 'exports.answer = () => 7;');
    expect(loadWithCodeCache(small).use).toBe('required');
    const file = join(dir, 'big.cjs');
    writeModule(file, 3);
    mkdirSync(cache);
    chmodSync(cache, 0o777);
    expect(statSync(cache).mode & 0o022).not.toBe(0);
    expect(loadWithCodeCache(file).use).toBe('required');
    process.env.REASONING_REPLAY_CODE_CACHE_DIR = 'off';
    expect(loadWithCodeCache(file).use).toBe('required');
  });
});
