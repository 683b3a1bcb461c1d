import { InputError } from '../../shared/errors/input-error.js';
import { readJsonFile } from '../../shared/validation/read-json.js';
import type { History } from '../../shared/history/history.js';
import { checkHistory } from '../history/load-history.js';
import type { ConvertOptions, HistoryFormatId } from './history-format.js';
import { HistoryFormatError } from '../../shared/errors/history-format-error.js';
import { HISTORY_FORMATS } from './history-formats.js';
import { detectHistoryFormat } from './detect-history-format.js';

/** `--history-format auto` reads the format off the file's shape (detect-history-format.ts). */
export type HistoryFormatChoice = HistoryFormatId | 'auto';

export interface LoadedHistory {
  history: History;
  notes: string[];
  /** The format the file was read as: the one asked for, or the one `auto` chose. */
  format: HistoryFormatId;
}

/**
 * Reads a history file stored in `format` and returns the canonical history, checked by the
 * history schema like any canonical file. What cannot be kept is refused as an InputError (exit 2,
 * the file, the JSON pointer into it, and the format's shape); what was read by a rule is returned
 * as notes for stderr. A canonical read that fails on a file shaped like another format says so.
 */
export function loadHistoryAs(file: string, format: HistoryFormatChoice, options: ConvertOptions = {}): LoadedHistory {
  const value = readJsonFile(file);
  const detected = detectHistoryFormat(value);
  if (format !== 'auto') {
    try {
      return convert(file, value, format, options);
    } catch (err) {
      if (err instanceof InputError && format === 'canonical' && detected !== 'canonical')
        throw new InputError(
          err.file,
          err.pointer,
          err.problem,
          `the file looks like ${detected}: pass --history-format ${detected} (or auto)`,
        );
      throw err;
    }
  }
  if (detected !== 'canonical') return convert(file, value, detected, options);
  // Canonical and an OpenAI chat export share their shape; the export may carry keys the schema refuses.
  try {
    return convert(file, value, 'canonical', options);
  } catch (canonicalError) {
    try {
      return convert(file, value, 'openai-chat', options);
    } catch {
      throw canonicalError;
    }
  }
}

function convert(file: string, value: unknown, format: HistoryFormatId, options: ConvertOptions): LoadedHistory {
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
    return { history: checkHistory(converted.history, file), notes: converted.notes, format };
  } catch (err) {
    if (err instanceof InputError && format !== 'canonical')
      throw new InputError(`${file} (as converted from ${format})`, err.pointer, err.problem, err.hint);
    throw err;
  }
}
