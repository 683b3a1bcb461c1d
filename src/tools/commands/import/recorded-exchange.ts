/**
 * One HTTP exchange as another tool recorded it, before it becomes a fixture exchange: the body
 * bytes exactly as stored (text, or bytes for a binary body such as Bedrock's event stream).
 */
export interface RecordedExchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string | Uint8Array;
}

/** Header names lower-cased and repeated values joined, as fetch's Headers would give them. */
export function headerRecord(entries: Iterable<[string, unknown]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of entries) {
    const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
    const key = name.toLowerCase();
    out[key] = out[key] !== undefined ? `${out[key]}, ${values.join(', ')}` : values.join(', ');
  }
  return out;
}
