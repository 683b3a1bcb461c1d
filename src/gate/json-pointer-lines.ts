/**
 * Maps JSON pointers to the 1-based line where each value starts in a JSON text (an object member's
 * line is its key's line). The gate uses it to point a GitHub annotation at the line of
 * specs/routes.json that introduced a failure. Assumes valid JSON: the table was parsed already.
 */
export function jsonPointerLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const newlines: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') newlines.push(i);
  const lineAt = (index: number): number => {
    let lo = 0;
    let hi = newlines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newlines[mid]! < index) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
  let pos = 0;
  const skip = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const readString = (): string => {
    const start = pos;
    pos++;
    while (text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
    pos++;
    return JSON.parse(text.slice(start, pos)) as string;
  };
  const value = (pointer: string, line: number): void => {
    skip();
    if (!lines.has(pointer)) lines.set(pointer, line);
    const c = text[pos];
    if (c === '{') {
      pos++;
      skip();
      if (text[pos] === '}') return void pos++;
      for (;;) {
        skip();
        const keyLine = lineAt(pos);
        const key = readString();
        skip();
        pos++; // ':'
        value(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, keyLine);
        skip();
        if (text[pos++] === '}') return;
      }
    } else if (c === '[') {
      pos++;
      skip();
      if (text[pos] === ']') return void pos++;
      for (let i = 0; ; i++) {
        skip();
        value(`${pointer}/${i}`, lineAt(pos));
        skip();
        if (text[pos++] === ']') return;
      }
    } else if (c === '"') {
      readString();
    } else {
      while (pos < text.length && !/[\s,\]}]/.test(text[pos]!)) pos++;
    }
  };
  skip();
  value('', lineAt(pos));
  return lines;
}

/** The line of `pointer`, or of its nearest ancestor that exists (a removed member points at its parent). */
export function lineOfPointer(lines: Map<string, number>, pointer: string): number {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const line = lines.get(p);
    if (line !== undefined) return line;
    if (p === '') return 1;
  }
}
