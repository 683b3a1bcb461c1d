import { InputError } from '../../shared/errors/input-error.js';

/**
 * Turns SQLite's failures into the one-line errors a user can act on (exit 2). Anything else is a
 * bug and is rethrown as is. Never answered by recreating the file: that would lose sessions.
 */
export function stateDbError(file: string, err: unknown): unknown {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'SQLITE_NOTADB':
      return new InputError(
        file,
        '',
        'is not a SQLite database (corrupt, encrypted or some other file)',
        'point --db at a reasoning-replay state.db, or at a new path to start one; this file was left untouched',
      );
    case 'SQLITE_CORRUPT':
      return new InputError(
        file,
        '',
        `the database is corrupt (${message})`,
        'restore it from a backup or try `sqlite3 FILE .recover`; this file was left untouched',
      );
    case 'SQLITE_BUSY':
    case 'SQLITE_BUSY_SNAPSHOT':
    case 'SQLITE_BUSY_RECOVERY':
    case 'SQLITE_LOCKED':
      return new InputError(
        file,
        '',
        'the database is locked by another process',
        'wait for the other reasoning-replay (or sqlite3 shell) to finish, then retry',
      );
    case 'SQLITE_READONLY':
      return new InputError(file, '', 'the database is read-only', 'check the file permissions');
    case 'SQLITE_CANTOPEN':
      return new InputError(
        file,
        '',
        `cannot open the database (${message})`,
        'check that the directory exists and is writable',
      );
    case 'SQLITE_ERROR':
      // A table or column a reasoning-replay state.db always has is gone: damage, not a bug here.
      if (/no such (table|column)/.test(message)) {
        return new InputError(
          file,
          '',
          `the state.db is damaged (${message})`,
          'restore it from a backup; this file was left untouched',
        );
      }
      return err;
    case 'SQLITE_FULL':
      return new InputError(file, '', 'the disk is full', 'free some space; nothing was half-written');
    default:
      return err;
  }
}

/** Runs `fn`, mapping SQLite failures through stateDbError. */
export function guardStateDb<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw stateDbError(file, err);
  }
}
