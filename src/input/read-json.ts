import { readFileSync } from 'node:fs';
import { InputError } from './input-error.js';

/** Parses JSON text, turning a syntax error into an InputError with a line and column. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = /position (\d+)/.exec(message);
    let where = '';
    if (at) {
      const offset = Number(at[1]);
      const before = text.slice(0, offset).split('\n');
      where = ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
    }
    throw new InputError(file, '', `not valid JSON${where}: ${message.replace(/^.*?: /, '')}`, 'fix the syntax; a JSON validator shows the spot');
  }
}

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, expected a JSON file' : `cannot read (${code ?? String(err)})`;
    throw new InputError(file, '', problem);
  }
  return parseJson(text, file);
}
