import { readJsonFile } from '../input/read-json.js';
import { assertValid } from '../input/validate.js';
import type { History } from './history.js';

export function checkHistory(value: unknown, file: string): History {
  return assertValid<History>(value, 'history.schema.json', file, 'a history is {"messages": [{"role", "content", ...}]}; see specs/schema/history.schema.json');
}

export function loadHistory(file: string): History {
  return checkHistory(readJsonFile(file), file);
}
