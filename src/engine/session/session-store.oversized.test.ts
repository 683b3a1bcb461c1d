import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DamagedRowError } from '../../shared/errors/damaged-row-error.js';
import { InputError } from '../../shared/errors/input-error.js';
import { SessionStore } from './session-store.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rr-oversized-'));
  file = join(dir, 'state.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Issue 27: `sessions show`, `sessions compact` and `replay --session` crashed on a row over V8's
 * longest string. Turn rows were already measured by SQLite before they were read; a session's own
 * row (its model_config) was not, and `sessions list` read every one of them. The limit is lowered
 * here (maxRowCharacters) instead of writing 512 MB.
 */
describe('a session whose model_config is over the row limit', () => {
  const seed = () => {
    const store = SessionStore.open(file);
    const id = store.importHistory({ messages: [{ role: 'user', content: 'hi' }] });
    store.db
      .prepare('UPDATE sessions SET model_config = ? WHERE id = ?')
      .run(JSON.stringify({ pad: 'm'.repeat(4096) }), id);
    store.maxRowCharacters = 1024;
    return { store, id };
  };

  it('is refused by resume (show, compact, replay --session) naming the session, before it is read', () => {
    const { store, id } = seed();
    let caught: unknown;
    try {
      store.resume(id);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as Error).message).toMatch(new RegExp(`session ${id}\\b.*model_config.*over the limit of 1024`));
    expect((caught as Error).message).not.toContain('\n');
    store.close();
  });

  it('does not stop sessions list, which never reads it', () => {
    const { store, id } = seed();
    expect(store.list().map((s) => s.id)).toEqual([id]);
    store.close();
  });
});

/**
 * A row over V8's longest string could not even be measured: SQLite's length() loads a TEXT value
 * to count its characters, and failed with "string or blob too big" (exit 70, an internal error).
 * Its bytes are read first with octet_length(), which loads nothing; the byte limit is lowered here.
 */
describe('a row over the bytes that can be read at all', () => {
  it('is refused naming the session, the turn and its size in bytes', () => {
    const store = SessionStore.open(file);
    const id = store.importHistory({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'ok', reasoning_content: 'r'.repeat(4096) },
      ],
    });
    store.maxRowBytes = 2048;
    let caught: unknown;
    try {
      store.resume(id);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DamagedRowError);
    expect((caught as Error).message).toMatch(
      new RegExp(`session ${id}, turn 2: the row holds \\d+ bytes, over the 2048`),
    );
    store.close();
  });

  it('refuses a model_config the same way', () => {
    const store = SessionStore.open(file);
    const id = store.importHistory({ messages: [{ role: 'user', content: 'hi' }] });
    store.db
      .prepare('UPDATE sessions SET model_config = ? WHERE id = ?')
      .run(JSON.stringify({ pad: 'm'.repeat(4096) }), id);
    store.maxRowBytes = 2048;
    expect(() => store.resume(id)).toThrow(new RegExp(`session ${id}: model_config holds \\d+ bytes, over the 2048`));
    store.close();
  });
});
