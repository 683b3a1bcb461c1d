import { isPlainObject } from '../../shared/objects/deep-merge.js';

/** Keys that carry reasoning on any family's wire; used to report what a request actually held. */
export const WIRE_CARRIER_KEYS = new Set([
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'thinking',
  'redacted_thinking',
  'reasoningContent',
  'thoughtSignature',
  'thought_signature',
  'reasoning_text',
  'reasoning_opaque',
  'encrypted_content',
]);

/** Carrier keys (and block types) present anywhere in a request body, sorted. */
export function wireCarrierKeys(body: unknown): string[] {
  const found = new Set<string>();
  // Plain loops: this walks every request body of a run, and entries()/forEach allocate per node.
  const walk = (value: unknown, depth: number): void => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) walk(value[i], depth + 1);
    } else if (isPlainObject(value)) {
      for (const key of Object.keys(value)) {
        const v = value[key];
        // Top-level `reasoning` ({effort}), `thinking` ({type, budget_tokens}) and Bedrock's
        // additionalModelRequestFields are request settings, not replayed reasoning.
        if (depth === 0 && key === 'additionalModelRequestFields') continue;
        if (WIRE_CARRIER_KEYS.has(key) && depth > 0) found.add(key);
        if (key === 'type' && typeof v === 'string' && WIRE_CARRIER_KEYS.has(v)) found.add(v);
        walk(v, depth + 1);
      }
    }
  };
  walk(body, 0);
  return [...found].sort();
}

/**
 * Every string leaf of a value (native records, opaque items), for byte-level search in a body. A
 * `kind` or `type` names a structure ("functionCall"), which any body of the family spells the same:
 * only the values are the record's own.
 */
export function stringLeaves(value: unknown, minLength = 8): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key?: string): void => {
    if (typeof v === 'string') {
      if (v.length >= minLength && key !== 'kind' && key !== 'type') out.push(v);
    } else if (Array.isArray(v)) v.forEach((item) => walk(item));
    else if (isPlainObject(v)) for (const [k, item] of Object.entries(v)) walk(item, k);
  };
  walk(value);
  return out;
}
