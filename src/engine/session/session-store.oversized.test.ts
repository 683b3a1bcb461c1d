import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
