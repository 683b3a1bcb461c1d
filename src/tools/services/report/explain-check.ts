import { oneLine } from './xml-escape.js';

/** One line of a check's "why": what happened, and the provider's raw body folded apart. */
export interface WhyLine {
  /**
   * "call 0 attempt 1: Mistral (strict) answered 422: unexpected property ... · provider says: Extra inputs are not
   * permitted"
   */
  text: string;
  /** The provider's body as it answered, when the line carried one. */
  raw?: string;
}

/**
 * A check's detail holds one line per problem, and a line about a provider's answer ends with its
 * raw JSON body (`... — {"error": ...}`). Readers want the status, the rule and the provider's own
 * words on one line, with the body out of the way: this splits the body off and lifts the
 * provider's message out of it.
 */
export function explainDetail(detail: string): WhyLine[] {
  return detail
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const at = rawBodyStart(line);
      if (at === -1) return { text: line.trim() };
      const head = line
        .slice(0, at)
        .replace(/\s*—\s*$/, '')
        .trim();
      const raw = line.slice(at).trim();
      const said = providerMessage(raw);
      return { text: said && !head.includes(said) ? `${head} · provider says: ${said}` : head, raw };
    });
}

/** The one-line summary of a detail: its first line, body folded away, cut to `max`. */
export function summarizeDetail(detail: string, max: number): string {
  const lines = explainDetail(detail);
  if (lines.length === 0) return '';
  const more = lines.length > 1 ? ` (+${lines.length - 1} more)` : '';
  return oneLine(lines[0]!.text, Math.max(20, max - more.length)) + more;
}

/** Where a trailing JSON body starts: after " — " when it parses as JSON. */
function rawBodyStart(line: string): number {
  const dash = line.indexOf(' — {') !== -1 ? line.indexOf(' — {') : line.indexOf(' — [');
  if (dash === -1) return -1;
  const start = dash + 3;
  try {
    JSON.parse(line.slice(start));
    return start;
  } catch {
    return -1;
  }
}

/** The human sentence inside a provider error body, in the shapes providers use. */
export function providerMessage(raw: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const candidates: unknown[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    for (const key of ['message', 'msg', 'param', 'detail']) if (typeof o[key] === 'string') candidates.push(o[key]);
    for (const key of ['error', 'detail', 'errors', 'metadata']) {
      const child = o[key];
      if (Array.isArray(child)) child.slice(0, 1).forEach((c) => visit(c, depth + 1));
      else visit(child, depth + 1);
    }
  };
  visit(body, 0);
  const first = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
  return first ? oneLine(first, 240) : undefined;
}
