import { InputError } from '../../shared/errors/input-error.js';
import { readJsonFile } from '../../shared/validation/read-json.js';
import { assertValid } from '../../shared/validation/validate.js';
import type { History } from '../../shared/history/history.js';
import { expectedNativeShape } from './native-record-shapes.js';

const HINT = 'a history is {"messages": [{"role", "content", ...}]}; see specs/schema/history.schema.json';

/**
 * Validates a canonical history. A native record that does not have its route's shape is refused
 * here (exit 2, its JSON pointer and the shape expected), never dropped later without a word.
 */
export function checkHistory(value: unknown, file: string): History {
  try {
    return assertValid<History>(value, 'history.schema.json', file, HINT);
  } catch (err) {
    const native = err instanceof InputError ? /^\/messages\/(\d+)\/native(?:\/|$)/.exec(err.pointer) : null;
    if (!native) throw err;
    const message = (value as { messages: { native?: { route?: unknown } }[] }).messages[Number(native[1])];
    const route = typeof message?.native?.route === 'string' ? message.native.route : '';
    const e = err as InputError;
    throw new InputError(file, e.pointer, `unreadable native record: ${e.problem}`, expectedNativeShape(route));
  }
}

export function loadHistory(file: string): History {
  return checkHistory(readJsonFile(file), file);
}
