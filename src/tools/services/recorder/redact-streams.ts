import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isOpaqueField } from './opaque-fields.js';
import { findSecretSpans, type SecretForms } from './secret-forms.js';

/**
 * Redaction over a stream's reassembled text. A key the provider streams back is cut wherever the
 * token boundaries fall: `"content":" token sk-li"` in one event, `"content":"ve-4f9..."` in the
 * next. Each string field is joined across events by its JSON path (choices/0/delta/content, ...)
 * the way a client would reassemble it; a secret found in the joined text is mapped back onto the
 * events: the first piece becomes the marker, the other pieces lose their part. Reassembled, the
 * stream reads exactly one marker where the key was. Events that change are re-serialized;
 * untouched events keep their bytes. Signed and encrypted fields are never joined or altered.
 */
interface Piece {
  event: number;
  /** Path inside the event's parsed data; [] for a data line that is not JSON. */
  path: Array<string | number>;
  from: number;
  to: number;
}

function leaves(
  value: unknown,
  path: Array<string | number>,
  out: Array<{ path: Array<string | number>; text: string }>,
  depth = 0,
): void {
  if (depth > 64) return;
  if (typeof value === 'string') out.push({ path, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, [...path, i], out, depth + 1));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!isOpaqueField(k, value)) leaves(v, [...path, k], out, depth + 1);
  }
}

function getAt(root: unknown, path: Array<string | number>): string {
  let node = root;
  for (const step of path) node = (node as Record<string | number, unknown>)[step];
  return node as string;
}

function setAt(root: unknown, path: Array<string | number>, value: string): unknown {
  if (path.length === 0) return value;
  let node = root;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
  (node as Record<string | number, unknown>)[path.at(-1)!] = value;
  return root;
}

export function redactStreamEvents(events: readonly SseEvent[], forms: readonly SecretForms[]): SseEvent[] {
  if (forms.length === 0) return [...events];
  const parsed: unknown[] = events.map((e) => {
    try {
      return JSON.parse(e.data) as unknown;
    } catch {
      return e.data; // a plain-text data line is one leaf
    }
  });
  // Joined text per path (the path key ignores nothing: choices/0 and choices/1 stay apart).
  const joined = new Map<string, { text: string; pieces: Piece[] }>();
  parsed.forEach((value, event) => {
    const found: Array<{ path: Array<string | number>; text: string }> = [];
    leaves(value, [], found);
    for (const { path, text } of found) {
      const key = JSON.stringify(path);
      const entry = joined.get(key) ?? { text: '', pieces: [] };
      entry.pieces.push({ event, path, from: entry.text.length, to: entry.text.length + text.length });
      entry.text += text;
      joined.set(key, entry);
    }
  });
  // Edits per event and leaf: [localFrom, localTo, replacement].
  const edits = new Map<number, Map<string, Array<[number, number, string]>>>();
  for (const { text, pieces } of joined.values()) {
    for (const [from, to, marker] of findSecretSpans(text, forms)) {
      let first = true;
      for (const piece of pieces) {
        if (piece.to <= from || piece.from >= to) continue;
        const byLeaf = edits.get(piece.event) ?? new Map<string, Array<[number, number, string]>>();
        const leafKey = JSON.stringify(piece.path);
        const list = byLeaf.get(leafKey) ?? [];
        list.push([Math.max(from, piece.from) - piece.from, Math.min(to, piece.to) - piece.from, first ? marker : '']);
        byLeaf.set(leafKey, list);
        edits.set(piece.event, byLeaf);
        first = false;
      }
    }
  }
  if (edits.size === 0) return [...events];
  return events.map((event, i) => {
    const byLeaf = edits.get(i);
    if (!byLeaf) return event;
    let value = parsed[i];
    for (const [leafKey, list] of byLeaf) {
      const path = JSON.parse(leafKey) as Array<string | number>;
      let text = getAt(value, path);
      for (const [from, to, replacement] of list.sort((a, b) => b[0] - a[0]))
        text = text.slice(0, from) + replacement + text.slice(to);
      value = setAt(value, path, text);
    }
    return { ...event, data: typeof value === 'string' ? value : JSON.stringify(value) };
  });
}
