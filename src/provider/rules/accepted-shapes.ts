import type { AcceptedShape, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Applies one accepted shape at `segments` under `value`, copying only what it changes. */
function apply(value: unknown, segments: readonly string[], shape: AcceptedShape): unknown {
  if (segments.length === 0) {
    if (shape.ifType !== undefined && jsonType(value) !== shape.ifType) return value;
    if (shape.readAs === 'array') return [value];
    if (!isPlainObject(value)) return value;
    if (shape.when && Object.entries(shape.when).some(([k, v]) => value[k] !== v)) return value;
    const missing = Object.entries(shape.readAs.defaults).filter(([k]) => !(k in value));
    return missing.length ? { ...value, ...Object.fromEntries(missing) } : value;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (!Array.isArray(value)) return value;
    let changed = false;
    const out = value.map((v) => {
      const next = apply(v, rest, shape);
      changed ||= next !== v;
      return next;
    });
    return changed ? out : value;
  }
  if (!isPlainObject(value) || !(head in value)) return value;
  const next = apply(value[head], rest, shape);
  return next === value[head] ? value : { ...value, [head]: next };
}

/**
 * The request body as the provider reads it: shapes its real API is shown to accept beyond its published
 * definition (spec `request.accepts`, each with its public source) are read as their canonical form before any rule
 * judges the body, so a shape the provider takes is never refused and is judged as what it means (a type-less
 * Responses item is a message whose id the pairing rule reads).
 */
export function readAsProvider(spec: ProviderSpec, body: unknown): unknown {
  let out = body;
  for (const shape of spec.request.accepts ?? []) out = apply(out, shape.path.split('.'), shape);
  return out;
}
