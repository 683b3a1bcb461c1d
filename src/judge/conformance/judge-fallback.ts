import { join } from 'node:path';
import { specsDir } from '../../shared/project-root.js';
import { STANDARD_CARRIER_FIELDS, type StandardCarrierField } from '../../shared/history/history.js';
import { normalizeHost } from '../../shared/route-table/host-matching.js';
import type { RouteTarget, Tier } from '../../shared/route-table/route-table.js';
import { readJsonFile } from '../../shared/validation/read-json.js';
import { assertValid } from '../../shared/validation/validate.js';

/**
 * The judge's own reading of the seed's unknown-field fallback (the README, docs/sessions.md and
 * the reference implementation's rules), written here on purpose rather than imported from the
 * engine's detector: a mistake shared by the engine and its judge would be invisible to both. The
 * phrasings are data, specs/unknown-field-phrasings.json, read by both sides.
 *
 * - Only a 4xx (or an error without a status) counts, and only when its text has one of the
 *   phrasings AND names a carrier that was sent.
 * - `reasoning` counts only on a messages path (it is also a top-level request parameter).
 * - On a must-echo route a complaint about reasoning_content is a value complaint: never counted,
 *   never dropped.
 * - Widening: reasoning_content refused -> all three withheld; reasoning or reasoning_details
 *   refused -> both of those.
 * - One retry, at most; a verdict is kept per (provider, host, model).
 */

let phrasings: string[] | undefined;
function unknownFieldPhrasings(): string[] {
  const file = join(specsDir(), 'unknown-field-phrasings.json');
  phrasings ??= assertValid<{ phrasings: Array<{ match: string }> }>(
    readJsonFile(file),
    'unknown-field-phrasings.schema.json',
    file,
  ).phrasings.map((p) => p.match.toLowerCase());
  return phrasings;
}

function lowerText(body: unknown): string {
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  return text.toLowerCase().replace(/\\+/g, '');
}

const named = (text: string, field: string) => new RegExp(`(?<![a-z0-9_])${field}(?![a-z0-9_])`).test(text);
/** `reasoning` as a message key: messages[2].reasoning, messages.2.assistant.reasoning, "messages", 2, "reasoning". */
const reasoningOnMessages = (text: string) =>
  /messages[^a-z]{0,6}\d+[^ ]{0,40}?[.['"]reasoning(?![a-z0-9_])/.test(text) ||
  /"messages",\s*\d+,\s*(?:"[a-z_]+",\s*)?"reasoning"/.test(text) ||
  /['"]reasoning['"]\s+at\s+['"][\w.]*messages/.test(text);

/** The carriers a provider error refuses as unknown, by the rules above; empty when it is no such rejection. */
export function refusedAsUnknown(
  status: number | undefined,
  body: unknown,
  sent: readonly string[],
  tier: Tier,
): StandardCarrierField[] {
  if (status !== undefined && status !== 0 && (status < 400 || status > 499)) return [];
  const text = lowerText(body);
  if (!unknownFieldPhrasings().some((p) => text.includes(p))) return [];
  return STANDARD_CARRIER_FIELDS.filter(
    (f) =>
      sent.includes(f) &&
      !(tier === 'must-echo' && f === 'reasoning_content') &&
      (f === 'reasoning' ? reasoningOnMessages(text) : named(text, f)),
  );
}

/** What a counted rejection withholds from then on (the seed's widening), must-echo's reasoning_content aside. */
export function widened(refused: readonly StandardCarrierField[], tier: Tier): StandardCarrierField[] {
  const out = new Set<StandardCarrierField>();
  for (const f of refused) {
    if (f === 'reasoning_content') STANDARD_CARRIER_FIELDS.forEach((g) => out.add(g));
    else (['reasoning', 'reasoning_details'] as const).forEach((g) => out.add(g));
  }
  if (tier === 'must-echo') out.delete('reasoning_content');
  return STANDARD_CARRIER_FIELDS.filter((f) => out.has(f));
}

/** Why a refused attempt is not an unknown-field rejection, in words, for the finding. */
export function whyNotUnknownField(status: number, body: unknown, sent: readonly string[], tier: Tier): string {
  if (status >= 500) return `a ${status} is a server error, never an unknown-field rejection`;
  const text = lowerText(body);
  if (!unknownFieldPhrasings().some((p) => text.includes(p)))
    return `its wording has none of the unknown-field phrasings (specs/unknown-field-phrasings.json)`;
  if (tier === 'must-echo' && named(text, 'reasoning_content'))
    return 'on a must-echo route a complaint about reasoning_content is about its value: the field is never dropped there';
  return `it names no carrier that was sent (${sent.join(', ') || 'none'})`;
}

/** The seed's verdict key: provider id lowercased, host as route matching sees it, model id exact. */
export function verdictKeyOf(target: RouteTarget): string {
  return JSON.stringify([target.provider.trim().toLowerCase(), normalizeHost(target.host), target.model]);
}

/** The verdicts the judge saw a session learn: a counted rejection the engine retried without its fields. */
export class VerdictLedger {
  private readonly byKey = new Map<string, Set<StandardCarrierField>>();

  learn(target: RouteTarget, fields: readonly StandardCarrierField[]): void {
    const key = verdictKeyOf(target);
    const set = this.byKey.get(key) ?? new Set();
    fields.forEach((f) => set.add(f));
    this.byKey.set(key, set);
  }

  holds(target: RouteTarget, field: StandardCarrierField): boolean {
    return this.byKey.get(verdictKeyOf(target))?.has(field) ?? false;
  }

  /** Another key's verdict for `field`, in words, or undefined. */
  otherKeyWith(target: RouteTarget, field: StandardCarrierField): string | undefined {
    const mine = verdictKeyOf(target);
    for (const [key, fields] of this.byKey) if (key !== mine && fields.has(field)) return key;
    return undefined;
  }

  get size(): number {
    return this.byKey.size;
  }
}
