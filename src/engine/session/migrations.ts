import type Database from 'better-sqlite3';

/**
 * The state.db schema, one entry per version. A migration is append-only: never edit a released
 * one, add the next. `PRAGMA user_version` holds the version reached; `PRAGMA application_id` marks
 * the file as ours so a foreign SQLite database is refused instead of being written into.
 */
export interface Migration {
  version: number;
  describe: string;
  sql: string;
}

/** 'RRPL' as a big-endian 32-bit integer. */
export const APPLICATION_ID = 0x5252504c;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    describe: 'sessions, turns with every carrier column, branches',
    sql: `
      CREATE TABLE sessions (
        id            INTEGER PRIMARY KEY,
        title         TEXT,
        origin        TEXT NOT NULL CHECK (origin IN ('new', 'import', 'branch', 'compaction')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL,
        -- JSON object; holds unknown_field_verdicts (specs/schema/model-config.schema.json)
        model_config  TEXT NOT NULL DEFAULT '{}',
        -- maintained in the same transaction as the rows, so a crash can never leave them apart
        turn_count    INTEGER NOT NULL DEFAULT 0,
        exchange_count INTEGER NOT NULL DEFAULT 0
      );

      -- One row per canonical message. Every value column is JSON text (a pad is '" "', an empty
      -- string '""'); NULL means the message had no such key. See turn-row.ts for why.
      CREATE TABLE turns (
        session_id        INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq               INTEGER NOT NULL CHECK (seq >= 1),
        exchange          INTEGER NOT NULL CHECK (exchange >= 1),
        role              TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content           TEXT NOT NULL,
        name              TEXT,
        tool_calls        TEXT,
        tool_call_id      TEXT,
        reasoning_content TEXT,
        reasoning         TEXT,
        reasoning_details TEXT,
        native            TEXT,
        created_at        TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;

      CREATE TABLE branches (
        child_session_id  INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
        parent_session_id INTEGER NOT NULL REFERENCES sessions(id),
        at_turn           INTEGER NOT NULL CHECK (at_turn >= 0),
        kind              TEXT NOT NULL CHECK (kind IN ('branch', 'compaction')),
        created_at        TEXT NOT NULL
      );
      CREATE INDEX branches_by_parent ON branches(parent_session_id);
    `,
  },
  {
    version: 2,
    describe: 'turns remember the model that wrote them (produced_by)',
    // Thinking a binding model wrote is bound to that model: a resumed or branched session must still know it.
    sql: `ALTER TABLE turns ADD COLUMN produced_by TEXT;`,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Applies every migration above the file's version, each in its own transaction. */
export function migrate(db: Database.Database): number[] {
  const applied: number[] = [];
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const migration of MIGRATIONS.filter((m) => m.version > current)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
