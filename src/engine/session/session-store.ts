import { constants } from 'node:buffer';
import type Database from 'better-sqlite3';
import { InputError } from '../../shared/errors/input-error.js';
import type { History, Message } from '../../shared/history/history.js';
import { UnknownFieldVerdicts } from '../replay/unknown-field-verdicts.js';
import { openStateDb, type OpenStateDbOptions } from './open-state-db.js';
import { guardStateDb } from './guard-state-db.js';
import { messageToRow, rowToMessage, type TurnRow } from './turn-row.js';
import { DamagedRowError } from '../../shared/errors/damaged-row-error.js';
import { InvariantError } from '../../shared/errors/invariant-error.js';

export type SessionOrigin = 'new' | 'import' | 'branch' | 'compaction';

export interface SessionSummary {
  id: number;
  title: string | null;
  origin: SessionOrigin;
  createdAt: string;
  updatedAt: string;
  turnCount: number;
  exchangeCount: number;
  /** Where a branch or a compaction came from. */
  parent?: { sessionId: number; atTurn: number; kind: 'branch' | 'compaction' };
}

export interface ResumedSession {
  session: SessionSummary;
  history: History;
  modelConfig: Record<string, unknown>;
  verdicts: UnknownFieldVerdicts;
}

interface SessionRow {
  id: number;
  title: string | null;
  origin: SessionOrigin;
  created_at: string;
  updated_at: string;
  turn_count: number;
  exchange_count: number;
  model_config: string;
  parent_session_id: number | null;
  at_turn: number | null;
  kind: 'branch' | 'compaction' | null;
}

const SESSION_SELECT = `
  SELECT s.id, s.title, s.origin, s.created_at, s.updated_at, s.turn_count, s.exchange_count, s.model_config,
         b.parent_session_id, b.at_turn, b.kind
  FROM sessions s LEFT JOIN branches b ON b.child_session_id = s.id`;

/** The summary columns only: listing every session never reads a model_config, however large. */
const SESSION_LIST_SELECT = `
  SELECT s.id, s.title, s.origin, s.created_at, s.updated_at, s.turn_count, s.exchange_count, '{}' AS model_config,
         b.parent_session_id, b.at_turn, b.kind
  FROM sessions s LEFT JOIN branches b ON b.child_session_id = s.id`;

const RESUME_PAGE_ROWS = 2048;

/** The largest row read back (all columns' characters together): far above any real turn. */
export const MAX_ROW_CHARACTERS = 64 * 1024 * 1024;

const TURN_COLUMNS =
  'role, content, name, tool_calls, tool_call_id, reasoning_content, reasoning, reasoning_details, native, produced_by';

function toSummary(row: SessionRow): SessionSummary {
  const summary: SessionSummary = {
    id: row.id,
    title: row.title,
    origin: row.origin,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    turnCount: row.turn_count,
    exchangeCount: row.exchange_count,
  };
  if (row.parent_session_id !== null && row.kind !== null)
    summary.parent = { sessionId: row.parent_session_id, atTurn: row.at_turn ?? 0, kind: row.kind };
  return summary;
}

/**
 * Sessions in a state.db. Every write that belongs together (the messages of one exchange and the
 * session's counters and model config; a whole branch; a whole compacted copy) is one transaction,
 * so a crash leaves either all of it or none of it.
 */
export class SessionStore {
  private readonly insertTurn: Database.Statement;
  private readonly turnsOf: Database.Statement;
  private readonly turnPage: Database.Statement;
  private readonly sessionById: Database.Statement;
  private readonly modelConfigSize: Database.Statement;
  private readonly modelConfigBytes: Database.Statement;
  /** The largest row resume reads back (tests lower it instead of writing 64 MB rows). */
  maxRowCharacters = MAX_ROW_CHARACTERS;
  /**
   * The most bytes a row may hold before its characters are even counted. SQLite's length() loads a
   * TEXT value to count its characters, and a value over V8's longest string fails there with
   * "string or blob too big" (an internal error, exit 70); octet_length() reads only the size.
   * Tests lower it instead of writing 512 MB.
   */
  maxRowBytes: number = constants.MAX_STRING_LENGTH;
  private readonly rowBytes: Database.Statement;
  private readonly rowCharacters: Database.Statement;
  /** Statements prepared once per store: preparing one costs more than running it on a small row. */
  private readonly statements = new Map<string, Database.Statement>();

  /**
   * One transaction wrapper per store, the work passed in: better-sqlite3 builds a wrapper (four
   * variants) per `db.transaction` call, which cost more than the small writes it wrapped. `immediate`
   * takes the write lock up front (every write that reads first); `deferred` for reads.
   */
  private readonly transactionOf: Database.Transaction<(work: () => unknown) => unknown>;

  private immediate<T>(work: () => T): T {
    return this.transactionOf.immediate(work) as T;
  }

  private deferred<T>(work: () => T): T {
    return this.transactionOf.deferred(work) as T;
  }

  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  constructor(
    readonly db: Database.Database,
    readonly file: string,
  ) {
    this.transactionOf = db.transaction((work: () => unknown) => work());
    this.insertTurn = db.prepare(
      `INSERT INTO turns (session_id, seq, exchange, ${TURN_COLUMNS}, created_at)
       VALUES (@session_id, @seq, @exchange, @role, @content, @name, @tool_calls, @tool_call_id, @reasoning_content, @reasoning, @reasoning_details, @native, @produced_by, @created_at)`,
    );
    this.turnsOf = db.prepare(`SELECT ${TURN_COLUMNS} FROM turns WHERE session_id = ? ORDER BY seq`);
    this.turnPage = db.prepare(
      `SELECT seq, ${TURN_COLUMNS} FROM turns WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    );
    this.sessionById = db.prepare(`${SESSION_SELECT} WHERE s.id = ?`);
    this.modelConfigSize = db.prepare('SELECT coalesce(length(model_config), 0) AS size FROM sessions WHERE id = ?');
    this.modelConfigBytes = db.prepare(
      'SELECT coalesce(octet_length(model_config), 0) AS bytes FROM sessions WHERE id = ?',
    );
    const size = TURN_COLUMNS.split(', ')
      .map((c) => `coalesce(length(${c}), 0)`)
      .join(' + ');
    const bytes = TURN_COLUMNS.split(', ')
      .map((c) => `coalesce(octet_length(${c}), 0)`)
      .join(' + ');
    // Rows whose UTF-8 bytes are over the character limit: only they can hold too many characters.
    this.rowBytes = db.prepare(
      `SELECT seq, ${bytes} AS bytes FROM turns WHERE session_id = ? AND ${bytes} > ? ORDER BY seq`,
    );
    this.rowCharacters = db.prepare(`SELECT ${size} AS size FROM turns WHERE session_id = ? AND seq = ?`);
  }

  static open(file: string, options: OpenStateDbOptions = {}): SessionStore {
    const db = openStateDb(file, options);
    return guardStateDb(file, () => new SessionStore(db, file));
  }

  close(): void {
    this.db.close();
  }

  private guard<T>(fn: () => T): T {
    return guardStateDb(this.file, fn);
  }

  private row(id: number): SessionRow {
    // Measured by SQLite first, like a turn row (refuseOversizedRows): a model_config over V8's
    // longest string crashed every command that read the session.
    const bytes = (this.modelConfigBytes.get(id) as { bytes: number } | undefined)?.bytes ?? 0;
    const size =
      bytes > this.maxRowCharacters && bytes <= this.maxRowBytes
        ? ((this.modelConfigSize.get(id) as { size: number } | undefined)?.size ?? 0)
        : 0;
    if (bytes > this.maxRowBytes || size > this.maxRowCharacters)
      throw new InputError(
        this.file,
        `/sessions/${id}/model_config`,
        bytes > this.maxRowBytes
          ? `session ${id}: model_config holds ${bytes} bytes, over the ${this.maxRowBytes} that can be read (V8's longest string)`
          : `session ${id}: model_config holds ${size} characters, over the limit of ${this.maxRowCharacters}`,
        'the row was written outside reasoning-replay or the file is damaged; restore it from a backup',
      );
    const row = this.sessionById.get(id) as SessionRow | undefined;
    if (!row)
      throw new InputError(
        this.file,
        `/sessions/${id}`,
        `no session ${id}`,
        'list them with: reasoning-replay sessions list',
      );
    return row;
  }

  createSession(init: { title?: string; origin?: SessionOrigin; modelConfig?: Record<string, unknown> } = {}): number {
    return this.guard(() => {
      const now = new Date().toISOString();
      const info = this.statement(
        'INSERT INTO sessions (title, origin, created_at, updated_at, model_config) VALUES (?, ?, ?, ?, ?)',
      ).run(init.title ?? null, init.origin ?? 'new', now, now, JSON.stringify(init.modelConfig ?? {}));
      return Number(info.lastInsertRowid);
    });
  }

  private appendRows(
    sessionId: number,
    messages: readonly Message[],
    exchangeOf: (index: number) => number,
    now: string,
    firstSeq: number,
  ): void {
    for (const [i, message] of messages.entries()) {
      this.insertTurn.run({
        session_id: sessionId,
        seq: firstSeq + i,
        exchange: exchangeOf(i),
        created_at: now,
        ...messageToRow(message),
      });
    }
  }

  /**
   * Appends one exchange (a user message, or an assistant answer with its tool results) in ONE
   * transaction, together with the session's counters and, when given, its updated verdicts.
   */
  appendExchange(
    sessionId: number,
    messages: readonly Message[],
    update: { verdicts?: UnknownFieldVerdicts } = {},
  ): { exchange: number; firstSeq: number; lastSeq: number } {
    // An empty exchange would count an exchange that has no rows; a branch recounts from rows.
    if (messages.length === 0) throw new InvariantError('appendExchange needs at least one message');
    return this.guard(() =>
      this.immediate(() => {
        const session = this.row(sessionId);
        const exchange = session.exchange_count + 1;
        const now = new Date().toISOString();
        this.appendRows(sessionId, messages, () => exchange, now, session.turn_count + 1);
        let modelConfig = session.model_config;
        if (update.verdicts) modelConfig = JSON.stringify(update.verdicts.toModelConfig(this.modelConfigOf(session)));
        this.statement(
          'UPDATE sessions SET turn_count = ?, exchange_count = ?, updated_at = ?, model_config = ? WHERE id = ?',
        ).run(session.turn_count + messages.length, exchange, now, modelConfig, sessionId);
        return { exchange, firstSeq: session.turn_count + 1, lastSeq: session.turn_count + messages.length };
      }),
    );
  }

  /** Stores a whole history as a new session in one transaction; an exchange starts at each user message. */
  importHistory(
    history: History,
    init: { title?: string; origin?: SessionOrigin; modelConfig?: Record<string, unknown> } = {},
  ): number {
    return this.guard(() =>
      this.immediate(() => {
        const id = this.createSession({ origin: 'import', ...init });
        this.writeHistory(id, history.messages);
        return id;
      }),
    );
  }

  private writeHistory(id: number, messages: readonly Message[]): void {
    const exchanges: number[] = [];
    let exchange = 0;
    for (const [i, m] of messages.entries()) {
      if (i === 0 || m.role === 'user') exchange += 1;
      exchanges.push(exchange);
    }
    const now = new Date().toISOString();
    this.appendRows(id, messages, (i) => exchanges[i]!, now, 1);
    this.statement('UPDATE sessions SET turn_count = ?, exchange_count = ?, updated_at = ? WHERE id = ?').run(
      messages.length,
      exchange,
      now,
      id,
    );
  }

  saveModelConfig(sessionId: number, modelConfig: Record<string, unknown>): void {
    this.guard(() => {
      this.row(sessionId);
      this.statement('UPDATE sessions SET model_config = ?, updated_at = ? WHERE id = ?').run(
        JSON.stringify(modelConfig),
        new Date().toISOString(),
        sessionId,
      );
    });
  }

  /** Persists the verdicts into the session's model config (other config keys kept). */
  saveVerdicts(sessionId: number, verdicts: UnknownFieldVerdicts): void {
    this.guard(() =>
      this.immediate(() => {
        const current = this.modelConfigOf(this.row(sessionId));
        this.saveModelConfig(sessionId, verdicts.toModelConfig(current));
      }),
    );
  }

  list(): SessionSummary[] {
    return this.guard(() =>
      (this.statement(`${SESSION_LIST_SELECT} ORDER BY s.id`).all() as SessionRow[]).map(toSummary),
    );
  }

  get(id: number): SessionSummary {
    return this.guard(() => toSummary(this.row(id)));
  }

  /** The session's history exactly as stored, and the model config (with its verdicts) it was left with. */
  resume(id: number): ResumedSession {
    return this.guard(() =>
      this.deferred(() => {
        const row = this.row(id);
        this.refuseOversizedRows(id);
        const messages = this.readMessages(id);
        const modelConfig = this.modelConfigOf(row);
        const verdicts = UnknownFieldVerdicts.fromModelConfig(modelConfig, `${this.file} session ${id} model_config`);
        return { session: toSummary(row), history: { messages }, modelConfig, verdicts };
      }),
    );
  }

  /**
   * Reads a session's messages a page at a time: the rows of one page die young, so on a long
   * session only the messages themselves outlive a garbage collection (all rows at once made the
   * collector copy every row object too).
   */
  private readMessages(id: number): Message[] {
    const messages: Message[] = [];
    for (let after = 0; ;) {
      const page = this.turnPage.all(id, after, RESUME_PAGE_ROWS) as (TurnRow & { seq: number })[];
      for (const row of page) messages.push(rowToMessage(row, { file: this.file, session: id, turn: row.seq }));
      if (page.length < RESUME_PAGE_ROWS) return messages;
      after = page[page.length - 1]!.seq;
    }
  }

  /**
   * A row larger than MAX_ROW_CHARACTERS is refused before it is read into memory (a 600 MB row
   * took the process down): SQLite measures it, only the turn number crosses over.
   */
  private refuseOversizedRows(id: number): void {
    const limit = this.maxRowCharacters;
    // Bytes first (never loads a value); characters only of rows small enough to be loaded.
    for (const row of this.rowBytes.all(id, Math.min(limit, this.maxRowBytes)) as { seq: number; bytes: number }[]) {
      const place = { file: this.file, session: id, turn: row.seq };
      if (row.bytes > this.maxRowBytes)
        throw new DamagedRowError(
          place,
          'row',
          `the row holds ${row.bytes} bytes, over the ${this.maxRowBytes} that can be read (V8's longest string)`,
        );
      const size = (this.rowCharacters.get(id, row.seq) as { size: number }).size;
      if (size > limit)
        throw new DamagedRowError(place, 'row', `the row holds ${size} characters, over the limit of ${limit}`);
    }
  }

  /** The session's model config, checked: a JSON object (its verdicts are checked by UnknownFieldVerdicts). */
  private modelConfigOf(row: SessionRow): Record<string, unknown> {
    let value: unknown;
    try {
      value = JSON.parse(row.model_config);
    } catch {
      throw new InputError(
        this.file,
        `/sessions/${row.id}/model_config`,
        `session ${row.id}: model_config is not JSON`,
        'the row was written outside reasoning-replay or the file is damaged; restore it from a backup',
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InputError(
        this.file,
        `/sessions/${row.id}/model_config`,
        `session ${row.id}: model_config is not a JSON object`,
        'the row was written outside reasoning-replay or the file is damaged; restore it from a backup',
      );
    }
    return value as Record<string, unknown>;
  }

  /** The raw stored rows (tests and `sessions show` use them to compare bytes). */
  rows(id: number): TurnRow[] {
    return this.guard(() => {
      this.row(id);
      return this.turnsOf.all(id) as TurnRow[];
    });
  }

  /**
   * A new session holding the first `atTurn` turns of `id`, copied row for row inside SQLite (so
   * every carrier is byte-identical), with the parent's model config. The two evolve independently.
   */
  branch(id: number, atTurn: number): number {
    return this.guard(() =>
      this.immediate(() => {
        const parent = this.row(id);
        if (!Number.isInteger(atTurn) || atTurn < 0 || atTurn > parent.turn_count) {
          throw new InputError(
            '--at',
            '',
            `turn ${atTurn} is outside session ${id} (it has ${parent.turn_count} turns)`,
            `use 0..${parent.turn_count}; the branch keeps turns 1..N`,
          );
        }
        const now = new Date().toISOString();
        const child = Number(
          this.statement(
            "INSERT INTO sessions (title, origin, created_at, updated_at, model_config) VALUES (?, 'branch', ?, ?, ?)",
          ).run(
            parent.title === null ? `branch of ${id}` : `${parent.title} (branch at ${atTurn})`,
            now,
            now,
            parent.model_config,
          ).lastInsertRowid,
        );
        this.statement(
          `INSERT INTO turns (session_id, seq, exchange, ${TURN_COLUMNS}, created_at) SELECT ?, seq, exchange, ${TURN_COLUMNS}, created_at FROM turns WHERE session_id = ? AND seq <= ?`,
        ).run(child, id, atTurn);
        const counts = this.statement(
          'SELECT count(*) AS n, coalesce(max(exchange), 0) AS e FROM turns WHERE session_id = ?',
        ).get(child) as { n: number; e: number };
        this.statement('UPDATE sessions SET turn_count = ?, exchange_count = ? WHERE id = ?').run(
          counts.n,
          counts.e,
          child,
        );
        this.statement(
          "INSERT INTO branches (child_session_id, parent_session_id, at_turn, kind, created_at) VALUES (?, ?, ?, 'branch', ?)",
        ).run(child, id, atTurn, now);
        return child;
      }),
    );
  }

  /**
   * Stores a compacted history as a new session linked to `id` (kind 'compaction'). The original
   * keeps its full transcript: compaction never deletes data, it starts a shorter continuation.
   */
  saveCompacted(id: number, history: History): number {
    return this.guard(() =>
      this.immediate(() => {
        const parent = this.row(id);
        const now = new Date().toISOString();
        const child = Number(
          this.statement(
            "INSERT INTO sessions (title, origin, created_at, updated_at, model_config) VALUES (?, 'compaction', ?, ?, ?)",
          ).run(
            parent.title === null ? `compaction of ${id}` : `${parent.title} (compacted)`,
            now,
            now,
            parent.model_config,
          ).lastInsertRowid,
        );
        this.writeHistory(child, history.messages);
        this.statement(
          "INSERT INTO branches (child_session_id, parent_session_id, at_turn, kind, created_at) VALUES (?, ?, ?, 'compaction', ?)",
        ).run(child, id, parent.turn_count, now);
        return child;
      }),
    );
  }
}
