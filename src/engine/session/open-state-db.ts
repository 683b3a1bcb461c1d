import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { InputError } from '../../shared/errors/input-error.js';
import { APPLICATION_ID, LATEST_SCHEMA_VERSION, migrate } from './migrations.js';
import { guardStateDb } from './guard-state-db.js';

export interface OpenStateDbOptions {
  /** Refuse to create a missing file (read-only commands: list, show, replay). */
  mustExist?: boolean;
  /** How long a write waits for another process's lock before failing, in ms. */
  busyTimeoutMs?: number;
  /** A scratch database (retention checks, benches): skip fsync. Never for a user's state.db. */
  scratch?: boolean;
}

/** The default state.db: $REASONING_REPLAY_DB, else ./state.db. */
export function defaultStateDbFile(): string {
  return process.env.REASONING_REPLAY_DB || 'state.db';
}

function refuseForeign(db: Database.Database, file: string): void {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (appId === APPLICATION_ID) {
    if (version > LATEST_SCHEMA_VERSION) {
      throw new InputError(
        file,
        '',
        `was written by a newer reasoning-replay (schema version ${version}; this one knows up to ${LATEST_SCHEMA_VERSION})`,
        'upgrade reasoning-replay; the file was left untouched',
      );
    }
    return;
  }
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").get() as {
    n: number;
  };
  if (appId !== 0 || version !== 0 || tables.n > 0) {
    throw new InputError(
      file,
      '',
      `is a SQLite database, but not a reasoning-replay state.db (application_id ${appId}, ${tables.n} table(s))`,
      'point --db at a reasoning-replay state.db or a new path; this file was left untouched',
    );
  }
}

function assertIntact(db: Database.Database, file: string): void {
  const problems = (db.pragma('quick_check') as { quick_check: string }[])
    .map((r) => r.quick_check)
    .filter((r) => r !== 'ok');
  if (problems.length > 0) {
    throw new InputError(
      file,
      '',
      `the database is corrupt (${problems[0]})`,
      'restore it from a backup or try `sqlite3 FILE .recover`; this file was left untouched',
    );
  }
}

/**
 * Opens (creating if allowed) a state.db: WAL, foreign keys on, a busy timeout, then the foreign /
 * newer-version checks BEFORE any write, then the pending migrations. Every failure is an InputError
 * naming the file; nothing here ever deletes or recreates a database.
 */
export function openStateDb(file: string, options: OpenStateDbOptions = {}): Database.Database {
  if (options.mustExist && file !== ':memory:' && !existsSync(file)) {
    throw new InputError(
      file,
      '',
      'no such state.db',
      'import a history first: reasoning-replay sessions import FILE --db ' + file,
    );
  }
  return guardStateDb(file, () => {
    const db = new Database(file);
    try {
      db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      if (options.scratch) db.pragma('synchronous = OFF');
      refuseForeign(db, file);
      // Switching to WAL rewrites the header and a migration writes pages: check the file first, so a
      // corrupt database is reported untouched. A state.db we made is already WAL with no migration
      // pending, so the usual open pays nothing for this.
      const pending = (db.pragma('user_version', { simple: true }) as number) < LATEST_SCHEMA_VERSION;
      const wal = db.pragma('journal_mode', { simple: true }) === 'wal';
      if (file !== ':memory:' && (pending || !wal)) assertIntact(db, file);
      if (file !== ':memory:' && !wal) db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      if (!options.scratch) db.pragma('synchronous = NORMAL');
      migrate(db);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  });
}
