import { createRequire } from 'node:module';
import type * as JsoncParser from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';

// jsonc-parser is required when a position is first asked for: reading valid JSON without a repeated key (every run's
// specs, scenarios and fixtures) never needs it, and loading its modules cost every run about 30 ms.
const requireCjs = createRequire(import.meta.url);
let loaded: typeof JsoncParser | undefined;
const jsonc = (): typeof JsoncParser => (loaded ??= requireCjs('jsonc-parser') as typeof JsoncParser);

/**
 * Positions inside a JSON text, from jsonc-parser: a maintained scanner that reports offsets itself,
 * so line and column never depend on the wording of V8's JSON.parse errors (which changes between
 * Node versions).
 */

/** 1-based line of every offset: a binary search over the text's newline offsets. */
export function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const newlines: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines.push(i);
  return (offset) => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    const lineStart = lo === 0 ? 0 : newlines[lo - 1]! + 1;
    return { line: lo + 1, column: offset - lineStart + 1 };
  };
}

export interface JsonSyntaxProblem {
  line: number;
  column: number;
  /** jsonc-parser's name for the fault, in words: "value expected", "comma expected", ... */
  problem: string;
}

/**
 * The first syntax fault of a text that strict JSON rejects (comments and trailing commas count as
 * faults, since JSON.parse refuses them), or undefined when the scanner finds none.
 */
export function firstJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const errors: ParseError[] = [];
  jsonc().parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors.sort((a, b) => a.offset - b.offset)[0];
  if (!first) return undefined;
  const { line, column } = lineIndex(text)(first.offset);
  return { line, column, problem: describeCode(jsonc().printParseErrorCode(first.error)) };
}

/** "ValueExpected" -> "value expected". */
function describeCode(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * Maps JSON pointers to the 1-based line where each value starts (an object member's line is its
 * key's line). The gate uses it to point a GitHub annotation at the line of specs/routes.json that
 * introduced a failure.
 */
export function jsonPointerLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const root = jsonc().parseTree(text);
  if (!root) return lines;
  const at = lineIndex(text);
  const walk = (node: Node, pointer: string, line: number): void => {
    if (!lines.has(pointer)) lines.set(pointer, line);
    if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (!key || !value) continue;
        walk(value, `${pointer}/${escapePointer(String(key.value))}`, at(property.offset).line);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((item, i) => walk(item, `${pointer}/${i}`, at(item.offset).line));
    }
  };
  walk(root, '', at(root.offset).line);
  return lines;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The line of `pointer`, or of its nearest ancestor that exists (a removed member points at its parent). */
export function lineOfPointer(lines: Map<string, number>, pointer: string): number {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const line = lines.get(p);
    if (line !== undefined) return line;
    if (p === '') return 1;
  }
}

export interface DuplicateJsonKey {
  /** JSON pointer of the object holding the key twice. */
  pointer: string;
  key: string;
  /** 1-based line of the later occurrence: the one JSON.parse keeps, silently dropping the earlier. */
  line: number;
}

/**
 * Keys named twice in one object. JSON.parse keeps the last and drops the earlier without a word, so a merge or a
 * hand edit that adds a second `models` beside the first loses every rule of the first.
 */
export function duplicateJsonKeys(text: string): DuplicateJsonKey[] {
  const root = jsonc().parseTree(text);
  if (!root) return [];
  const at = lineIndex(text);
  const out: DuplicateJsonKey[] = [];
  const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
  const walk = (node: Node, pointer: string): void => {
    if (node.type === 'array') node.children?.forEach((child, i) => walk(child, `${pointer}/${i}`));
    if (node.type !== 'object') return;
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const [keyNode, value] = property.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      if (seen.has(key)) out.push({ pointer, key, line: at(keyNode.offset).line });
      seen.add(key);
      if (value) walk(value, `${pointer}/${escape(key)}`);
    }
  };
  walk(root, '');
  return out;
}

/**
 * Whether a valid JSON text may name a key twice in one object; `value` must be `JSON.parse(text)`. JSON.parse keeps
 * one key per name, so the text has more object members than the value has keys exactly when a key is named twice.
 * Counting both costs one scan of the text and one walk of the value, a fraction of duplicateJsonKeys' tree walk,
 * which then runs only to say where.
 */
export function mayHaveDuplicateJsonKeys(text: string, value: unknown): boolean {
  return countMembers(text) !== countKeys(value);
}

const BACKSLASH = 92;
const COLON = 58;

/**
 * The object members of a valid JSON text: its string tokens followed by `:`. Outside strings JSON has no `"`, so
 * a left-to-right scan meets each string at its opening quote; its closing quote is the next one preceded by an even
 * run of backslashes. Found with indexOf, no match object per string (on the 7 MB of provider specs the regular
 * expression's matches were the largest allocation of a `check`).
 */
function countMembers(text: string): number {
  let members = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    let close = text.indexOf('"', open + 1);
    for (;;) {
      if (close === -1) return members;
      let slashes = 0;
      for (let i = close - 1; text.charCodeAt(i) === BACKSLASH; i--) slashes++;
      if (slashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    // JSON.parse accepted the text, so only JSON's own whitespace can stand between a key and its colon.
    let next = close + 1;
    let c = text.charCodeAt(next);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++next);
    if (c === COLON) members += 1;
    open = text.indexOf('"', next);
  }
  return members;
}

/** The keys of every object in a parsed value, walked without recursion and without spreading lists. */
function countKeys(value: unknown): number {
  let keys = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) pending.push(node[i]);
    else if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        keys += 1;
        pending.push(record[key]);
      }
    }
  }
  return keys;
}
