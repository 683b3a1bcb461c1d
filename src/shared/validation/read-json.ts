import { readFileSync } from 'node:fs';
import { InputError } from '../errors/input-error.js';
import { duplicateJsonKeys, firstJsonSyntaxProblem, mayHaveDuplicateJsonKeys } from './json-positions.js';
import { refuseOversizedTextFile } from '../files/text-file-size-limit.js';
import { assertWithinLimits } from './validate.js';

/**
 * Parses JSON text, turning a syntax error into an InputError with a line and column. JSON.parse
 * stays the parser (fast, and the reference for what JSON is); only its failure is located, by
 * jsonc-parser, so the position never depends on the wording of V8's message.
 */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const found = locateSyntaxProblem(text);
    if (found)
      throw new InputError(
        file,
        '',
        `not valid JSON at line ${found.line}, column ${found.column}: ${found.problem}`,
        'fix the syntax at that spot',
      );
    // The scanner accepted what JSON.parse refused (an edge such as a lone BOM): V8's words, no position.
    const message = err instanceof Error ? err.message : String(err);
    throw new InputError(
      file,
      '',
      `not valid JSON: ${message.replace(/^./, (c) => c.toLowerCase())}`,
      'fix the syntax',
    );
  }
}

/**
 * The syntax fault's position, or undefined when it cannot be found. jsonc-parser's scanner recurses
 * once per level: a text nested 100,000 deep overflows the stack there, and the fault is then told in
 * V8's words without a position rather than as a stack trace.
 */
function locateSyntaxProblem(text: string): ReturnType<typeof firstJsonSyntaxProblem> {
  try {
    return firstJsonSyntaxProblem(text);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

export interface ReadJsonOptions {
  /** The largest file read (default MAX_TEXT_FILE_BYTES, V8's longest string); tests lower it. */
  maxBytes?: number;
  /**
   * Refuse a key named twice in one object (JSON.parse would keep the last and drop the other without a word).
   * For hand-edited data (route tables, provider specs), not for recordings, which can be large.
   */
  refuseDuplicateKeys?: boolean;
}

export function readJsonFile(file: string, options: ReadJsonOptions = {}): unknown {
  refuseOversizedTextFile(file, options.maxBytes);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory, expected a JSON file'
          : `cannot read (${code ?? String(err)})`;
    throw new InputError(file, '', problem);
  }
  const value = parseJson(text, file);
  if (options.refuseDuplicateKeys) {
    // The duplicate-key scan walks the text with a recursive parser: the depth and size limits every
    // validated input meets come first, so a file nested 100,000 deep is one line, not a stack overflow.
    assertWithinLimits(value, file);
    // The exact scan costs a tree walk of the whole text; a count of members against keys rules most files out first.
    const [first] = mayHaveDuplicateJsonKeys(text, value) ? duplicateJsonKeys(text) : [];
    if (first)
      throw new InputError(
        file,
        first.pointer,
        `the key "${first.key}" is named twice (line ${first.line}); only the last would be read`,
        'merge the two into one',
      );
  }
  return value;
}
