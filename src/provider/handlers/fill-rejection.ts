import type { Rejection } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

type Params = Record<string, string | number>;

function fillString(text: string, params: Params): string | number {
  // A string that is only "{index}" becomes the number: providers put indexes in JSON arrays (Mistral's `loc`).
  const whole = /^\{(\w+)\}$/.exec(text);
  if (whole && typeof params[whole[1]!] === 'number') return params[whole[1]!]!;
  return text.replace(/\{(\w+)\}/g, (m, key: string) => (params[key] !== undefined ? String(params[key]) : m));
}

function fill(value: unknown, params: Params): unknown {
  if (typeof value === 'string') return fillString(value, params);
  if (Array.isArray(value)) return value.map((v) => fill(v, params));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, params)]));
  return value;
}

/**
 * Placeholders (`{index}`, ...) a filled body still holds: a rule that did not supply them, never to reach a client.
 */
export function unfilledPlaceholders(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') for (const m of value.matchAll(/\{([a-z_]+)\}/g)) out.push(m[1]!);
  else if (Array.isArray(value)) value.forEach((v) => unfilledPlaceholders(v, out));
  else if (isPlainObject(value)) Object.values(value).forEach((v) => unfilledPlaceholders(v, out));
  return out;
}

/** The provider's error answer, placeholders filled from what the request got wrong. */
export function fillRejection(
  rejection: Rejection,
  params: Params,
): { status: number; headers: Record<string, string>; body: unknown } {
  return { status: rejection.status, headers: { ...(rejection.headers ?? {}) }, body: fill(rejection.body, params) };
}
