import { readFileSync } from 'node:fs';
import { InputError } from './input-error.js';

/**
 * Where V8's JSON.parse error points. Most messages say `at position N`; "Unexpected token" ones
 * quote a window instead (`..."a": [,]}"`), which starts 10 characters before the fault when cut.
 */
function errorOffset(message: string, text: string): number | undefined {
  const at = /position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const quoted = /^Unexpected token '(.+?)', ("|\.\.\.)(.*?)(?:"|\.\.\.) is not valid JSON/s.exec(message);
  if (!quoted) return /Unexpected end of JSON input/.test(message) ? text.length : undefined;
  const [, token, opening, core] = quoted as unknown as [string, string, string, string];
  const cut = opening === '...';
  const start = text.indexOf(core);
  if (start < 0) return undefined;
  return cut ? start + 10 : start + Math.max(0, core.indexOf(token));
}

/** Parses JSON text, turning a syntax error into an InputError with a line and column. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const offset = errorOffset(message, text);
    let where = '';
    if (offset !== undefined) {
      const before = text.slice(0, offset).split('\n');
      where = ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
    }
    const token = /^Unexpected token '(.+?)'/.exec(message);
    const what = token ? `unexpected "${token[1]}"` : message.replace(/ in JSON at position \d+.*$/s, '').replace(/^./, (c) => c.toLowerCase());
    throw new InputError(file, '', `not valid JSON${where}: ${what}`, 'fix the syntax at that spot');
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
