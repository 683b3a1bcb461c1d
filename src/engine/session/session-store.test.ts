import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { implementedFamilies } from '../families/registry.js';
import { InputError } from '../../shared/errors/input-error.js';
import { loadRouteTable } from '../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../shared/route-table/resolve-route.js';
import { sampleTargetForRoute } from '../../shared/route-table/sample-target.js';
import { replayForRoute } from '../replay/replay-for-route.js';
import { UnknownFieldVerdicts } from '../replay/unknown-field-verdicts.js';
import { APPLICATION_ID, LATEST_SCHEMA_VERSION } from './migrations.js';
import { SessionStore } from './session-store.js';
import { sampleHistoryWithEveryCarrier } from './sample-history.test-helper.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rr-state-'));
  file = join(dir, 'state.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const table = loadRouteTable();
const routes = table.routes.filter((r) => implementedFamilies().includes(r.family));

describe('SessionStore', () => {
  it('creates a WAL database with foreign keys, our application id and the latest schema', () => {
    const store = SessionStore.open(file);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(store.db.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    store.close();
  });

  it('resumes the exact history: NULL, "" and " " kept apart, JSON carriers byte-identical', () => {
    const history = sampleHistoryWithEveryCarrier();
    const store = SessionStore.open(file);
    const id = store.importHistory(history, { title: 'weather' });
    store.close();

    const again = SessionStore.open(file);
    const resumed = again.resume(id);
    expect(resumed.history).toEqual(history);
    // Keys come back in the canonical order of history.ts; every value, carriers included, byte for byte.
    for (const [i, original] of history.messages.entries()) {
      for (const [key, value] of Object.entries(original)) {
        expect(JSON.stringify((resumed.history.messages[i] as unknown as Record<string, unknown>)[key])).toBe(
          JSON.stringify(value),
        );
      }
      expect(Object.keys(resumed.history.messages[i]!).sort()).toEqual(Object.keys(original).sort());
    }
    const rows = again.rows(id);
    expect(rows[7]!.reasoning_content).toBe('" "');
    expect(rows[9]!.reasoning_content).toBe('""');
    expect(rows[5]!.reasoning_content).toBeNull();
    expect(rows[2]!.reasoning_details).toBe(JSON.stringify(history.messages[2]!.reasoning_details));
    expect(resumed.session).toMatchObject({ id, title: 'weather', origin: 'import', turnCount: 10, exchangeCount: 3 });
    again.close();
  });

  it('keeps a string with a lone surrogate (a stream cut mid-pair) exactly', () => {
    const store = SessionStore.open(file);
    const odd = { role: 'assistant' as const, content: 'x\ud83d', reasoning_content: '\ude00y', name: 'n\ud800' };
    const id = store.importHistory({ messages: [odd] });
    expect(store.resume(id).history.messages[0]).toEqual(odd);
    store.close();
  });

  it(`replays a resumed session byte-identically to the live one on every route (${routes.length} routes)`, () => {
    const history = sampleHistoryWithEveryCarrier();
    const store = SessionStore.open(file);
    const id = store.importHistory(history);
    const resumed = store.resume(id).history;
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const policy = resolveRoute(table, sampleTargetForRoute(route));
      expect(policy.routeId).toBe(route.id);
      for (const omit of [new Set<never>(), new Set(['reasoning', 'reasoning_details'] as const)]) {
        const live = JSON.stringify(replayForRoute(history, policy, { omit }));
        expect(JSON.stringify(replayForRoute(resumed, policy, { omit })), route.id).toBe(live);
      }
    }
    store.close();
  });

  it('persists verdicts with the exchange that learned them, and resume brings them back', () => {
    const store = SessionStore.open(file);
    const id = store.createSession({ title: 't', modelConfig: { temperature: 1 } });
    const verdicts = new UnknownFieldVerdicts();
    verdicts.record({ provider: 'Groq', host: 'api.groq.com', model: 'm' }, ['reasoning_content']);
    const written = store.appendExchange(id, [{ role: 'user', content: 'hi' }], { verdicts });
    expect(written).toEqual({ exchange: 1, firstSeq: 1, lastSeq: 1 });
    store.close();
    const resumed = SessionStore.open(file).resume(id);
    expect(resumed.modelConfig.temperature).toBe(1);
    expect(resumed.verdicts.entries()).toEqual([['groq', 'api.groq.com', 'm', ['reasoning_content']]]);
  });

  it('branches copy every carrier byte for byte and then evolve independently', () => {
    const history = sampleHistoryWithEveryCarrier();
    const store = SessionStore.open(file);
    const parent = store.importHistory(history, { modelConfig: { k: 1 } });
    const child = store.branch(parent, 6);
    expect(store.rows(child)).toEqual(store.rows(parent).slice(0, 6));
    expect(store.get(child)).toMatchObject({
      origin: 'branch',
      turnCount: 6,
      parent: { sessionId: parent, atTurn: 6, kind: 'branch' },
    });

    store.appendExchange(child, [{ role: 'user', content: 'only in the branch' }]);
    const v = new UnknownFieldVerdicts();
    v.record({ provider: 'x', host: 'h', model: 'm' }, ['reasoning']);
    store.saveVerdicts(child, v);
    store.appendExchange(parent, [{ role: 'user', content: 'only in the parent' }]);

    expect(store.resume(parent).history.messages.slice(0, 10)).toEqual(history.messages);
    expect(store.resume(parent).history.messages.at(-1)!.content).toBe('only in the parent');
    expect(store.resume(parent).verdicts.size).toBe(0);
    expect(store.resume(child).history.messages).toEqual([
      ...history.messages.slice(0, 6),
      { role: 'user', content: 'only in the branch' },
    ]);
    expect(store.resume(child).verdicts.size).toBe(1);
    expect(store.resume(child).modelConfig.k).toBe(1);
    expect(store.branch(parent, 0)).toBeGreaterThan(child);
    expect(() => store.branch(parent, 99)).toThrow(/outside session/);
    expect(() => store.branch(12345, 1)).toThrow(InputError);
    store.close();
  });
});

describe('resume does the same work per row, whatever the session length', () => {
  // Resume is a single pass: every stored value parsed once, a fixed set of statements. Timing
  // cannot show this in a test; counting can (a re-parse of earlier rows, or a statement prepared
  // per row or per page, made resume quadratic or slow without failing anything else).
  const longHistory = (copies: number) => {
    const one = sampleHistoryWithEveryCarrier().messages;
    return { messages: [one[0]!, ...Array.from({ length: copies }, () => one.slice(1)).flat()] };
  };
  const storedValues = (store: SessionStore, id: number) =>
    store.rows(id).reduce((n, row) => n + Object.values(row).filter((v) => v !== null).length - 1, 0);

  it.each([1, 40, 400])(
    '%i copies of the sample: one JSON.parse per stored value (+1 for the model config), no prepare',
    (copies) => {
      const store = SessionStore.open(file);
      const id = store.importHistory(longHistory(copies));
      store.resume(id); // schemas are loaded and compiled on first use
      const parse = vi.spyOn(JSON, 'parse');
      const prepare = vi.spyOn(store.db, 'prepare');
      try {
        const resumed = store.resume(id);
        expect(resumed.history.messages.length).toBeGreaterThan(copies);
        expect(parse).toHaveBeenCalledTimes(storedValues(store, id) + 1);
        expect(prepare).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
        prepare.mockRestore();
        store.close();
      }
    },
  );
});

describe('state.db that is not ours, newer, corrupt or locked', () => {
  const expectUntouched = (path: string, fn: () => unknown, message: RegExp) => {
    const before = readFileSync(path);
    let error: unknown;
    try {
      fn();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(path);
    expect(readFileSync(path).equals(before)).toBe(true);
  };

  it('refuses a file that is not SQLite at all', () => {
    writeFileSync(file, 'this is a text file, not a database\n'.repeat(40));
    expectUntouched(file, () => SessionStore.open(file), /not a SQLite database/);
  });

  it('refuses a foreign SQLite database', () => {
    const other = new Database(file);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (1)');
    other.close();
    expectUntouched(file, () => SessionStore.open(file), /not a reasoning-replay state\.db/);
  });

  it('refuses a database from a newer schema version', () => {
    SessionStore.open(file).close();
    const db = new Database(file);
    db.pragma('journal_mode = DELETE');
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expectUntouched(
      file,
      () => SessionStore.open(file),
      new RegExp(`newer reasoning-replay \\(schema version ${LATEST_SCHEMA_VERSION + 1}`),
    );
  });

  it('reports a corrupt database instead of resetting it', () => {
    const store = SessionStore.open(file);
    store.importHistory(sampleHistoryWithEveryCarrier());
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.db.pragma('journal_mode = DELETE');
    store.close();
    const bytes = readFileSync(file);
    // Keep the header (so SQLite accepts the file) and scribble over every later page.
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    writeFileSync(file, bytes);
    expectUntouched(
      file,
      () => SessionStore.open(file).list().length && SessionStore.open(file).resume(1),
      /corrupt|not a SQLite/,
    );
  });

  it('reports a corrupt WAL database when it reads the broken pages', () => {
    const store = SessionStore.open(file);
    store.importHistory(sampleHistoryWithEveryCarrier());
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.close();
    const bytes = readFileSync(file);
    for (let i = 4096; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    writeFileSync(file, bytes);
    expectUntouched(file, () => SessionStore.open(file).resume(1), /corrupt|not a SQLite/);
  });

  it('reports a database locked by another writer', () => {
    const store = SessionStore.open(file, { busyTimeoutMs: 50 });
    const id = store.createSession();
    const other = new Database(file);
    other.pragma('busy_timeout = 50');
    other.exec('BEGIN EXCLUSIVE');
    expect(() => store.appendExchange(id, [{ role: 'user', content: 'x' }])).toThrow(/locked by another process/);
    other.exec('ROLLBACK');
    other.close();
    expect(store.appendExchange(id, [{ role: 'user', content: 'x' }]).exchange).toBe(1);
    store.close();
  });

  it('does not create a database for read-only commands', () => {
    expect(() => SessionStore.open(join(dir, 'missing.db'), { mustExist: true })).toThrow(/no such state\.db/);
  });
});
