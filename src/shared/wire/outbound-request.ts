import type { FamilyId, StandardWireField } from './families.js';

/**
 * One request an engine puts on the wire, and the per-request options it was built with. Both the
 * engine (which builds it) and the judge (which sends and judges it) read this shape, so it lives
 * with the other neutral wire facts: the judge depends on what a request is, never on the engine.
 */
export interface RequestOptions {
  stream?: boolean;
  tools?: unknown[];
  /** Fields the unknown-field fallback withholds for this request only. */
  omit?: ReadonlySet<StandardWireField>;
}

export interface OutboundRequest {
  family: FamilyId;
  method: 'POST';
  /** Path below the route's base URL, e.g. `/chat/completions`. */
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}
