import { InputError } from '../../shared/errors/input-error.js';
import { readJsonFile } from '../../shared/validation/read-json.js';
import type { History } from '../../shared/history/history.js';
import { checkHistory } from '../history/load-history.js';
import type { ConvertOptions, HistoryFormatId } from './history-format.js';
import { HistoryFormatError } from '../../shared/errors/history-format-error.js';
import { HISTORY_FORMATS } from './history-formats.js';

/**
 * Reads a history file stored in `format` and returns the canonical history, checked by the
 * history schema like any canonical file. What cannot be kept is refused as an InputError (exit 2,
 * the file, the JSON pointer into it, and the format's shape); what was read by a rule is returned
 * as notes for stderr.
 */
export function loadHistoryAs(
  file: string,
  format: HistoryFormatId,
  options: ConvertOptions = {},
): { history: History; notes: string[] } {
  const value = readJsonFile(file);
  const converter = HISTORY_FORMATS[format];
  let converted;
  try {
    converted = converter.toCanonical(value, options);
  } catch (err) {
    if (err instanceof HistoryFormatError)
      throw new InputError(
        file,
        err.pointer,
        `${err.problem} (reading it as ${format})`,
        err.hint ?? `a ${format} history is ${converter.shape}`,
      );
    throw err;
  }
  // A converted history is checked as canonical: a pointer then names the canonical message, so say so.
  try {
    return { history: checkHistory(converted.history, file), notes: converted.notes };
  } catch (err) {
    if (err instanceof InputError && format !== 'canonical')
      throw new InputError(`${file} (as converted from ${format})`, err.pointer, err.problem, err.hint);
    throw err;
  }
}
