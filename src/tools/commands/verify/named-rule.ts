import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ProviderSpec, Rejection } from '../../../shared/provider-specs/provider-spec.js';

/** The rejection of a spec (or of a variant or upstream it answers with) that a wording names. */
export interface NamedRule {
  /** The rejection id in the spec's `rejections`. */
  id: string;
  /** The spec that holds it (a gateway passes its upstream's through). */
  spec: string;
  status: number;
}

export const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isPlainObject(value)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** Every string of a JSON body, joined: where a provider puts its message varies by envelope. */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') {
    try {
      return strings(JSON.parse(body)).join('\n');
    } catch {
      return body;
    }
  }
  return strings(body).join('\n');
}

interface Pattern {
  rule: NamedRule;
  regex: RegExp;
  /** Literal characters the pattern fixes: the more, the more specific. */
  weight: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A rejection's sentences as patterns: placeholders (`{index}`) match anything, the mock's own
 * notes on wording it could not reproduce ("(reasoning-replay mock: ...)") are dropped, and only
 * sentence-like strings count (an error `type` such as `invalid_request_error` names no rule).
 */
function patternsOf(id: string, spec: string, rejection: Rejection): Pattern[] {
  const out: Pattern[] = [];
  for (const s of strings(rejection.body)) {
    const text = squash(s.replace(/\s*\(reasoning-replay mock:[^)]*\)/g, ''));
    const literal = text.replace(/\{\w+\}/g, '');
    if (literal.length < 12 || !literal.includes(' ')) continue;
    const source = text
      .split(/\{\w+\}/)
      .map(escape)
      .join('[\\s\\S]*?');
    out.push({ rule: { id, spec, status: rejection.status }, regex: new RegExp(source), weight: literal.length });
  }
  return out;
}

function rejectionsOf(spec: ProviderSpec): Array<[string, Rejection]> {
  return [
    ...Object.entries(spec.rejections),
    ...(spec.models?.variants ?? []).flatMap((v) => Object.entries(v.rejections ?? {})),
  ];
}

/**
 * Which rule of the provider's spec a live error's wording names: the rejection whose sentence
 * the wording contains, the most specific when several do. A gateway's upstream rejections count
 * too (they pass through). Undefined: the wording names no rule the spec knows.
 */
export function namedRule(
  text: string,
  spec: ProviderSpec,
  specs: ReadonlyMap<string, ProviderSpec>,
): NamedRule | undefined {
  const sources: ProviderSpec[] = [spec];
  for (const upstream of spec.upstreams ?? []) {
    const other = specs.get(upstream.provider);
    if (other && !sources.includes(other)) sources.push(other);
  }
  const wording = squash(text);
  let best: Pattern | undefined;
  for (const source of sources)
    for (const [id, rejection] of rejectionsOf(source))
      for (const p of patternsOf(id, source.id, rejection))
        if ((!best || p.weight > best.weight) && p.regex.test(wording)) best = p;
  return best?.rule;
}
