import type { StandardCarrierField } from '../../shared/history/history.js';
import { STANDARD_CARRIER_FIELDS } from '../../shared/history/history.js';
import type { Tier } from '../../shared/route-table/route-table.js';
import { defaultUnknownFieldPhrasings, type UnknownFieldPhrasings } from './unknown-field-phrasings.js';

/** The error body as one lowercased string; JSON escapes are dropped so nested `raw` bodies read like the outer one. */
export function errorText(body: unknown): string {
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body === undefined || body === null) text = '';
  else {
    try {
      text = JSON.stringify(body);
    } catch {
      text = String(body);
    }
  }
  return text.toLowerCase().replace(/\\+/g, '');
}

export function hasUnknownFieldPhrasing(
  text: string,
  phrasings: UnknownFieldPhrasings = defaultUnknownFieldPhrasings(),
): boolean {
  const lower = text.toLowerCase();
  return phrasings.phrasings.some((p) => lower.includes(p.match));
}

const wholeWord = (field: string) => new RegExp(`(?<![a-z0-9_])${field}(?![a-z0-9_])`);

/**
 * `reasoning` is also a top-level request parameter (OpenRouter, Vercel, Groq), so a complaint about
 * it only concerns the message carrier when it sits on a messages path. The shapes seen in the wild:
 * dotted/bracketed paths (OpenAI, Cerebras, Mistral's text form), pydantic `loc` arrays, Groq's
 * `'messages.N' : property 'x'` and Google's `Unknown name "x" at 'messages[N]'`.
 */
const REASONING_ON_MESSAGES_PATH = [
  /messages(?:\[\d+\]|\.\d+)[\w.[\]'"]*?[.['"]reasoning(?![a-z0-9_])/,
  /"messages",\s*\d+,\s*(?:"[a-z_]+",\s*)?"reasoning"/,
  /messages[.[]\d+\]?['"]?\s*:\s*(?:property\s+)?['"]reasoning['"]/,
  /['"]reasoning['"]\s+at\s+['"][\w.]*messages/,
];

/** Which standard carriers the error body names, by the rules above (no widening, no tier rule). */
export function carriersNamed(text: string): StandardCarrierField[] {
  const named = new Set<StandardCarrierField>();
  if (wholeWord('reasoning_content').test(text)) named.add('reasoning_content');
  if (wholeWord('reasoning_details').test(text)) named.add('reasoning_details');
  if (REASONING_ON_MESSAGES_PATH.some((re) => re.test(text))) named.add('reasoning');
  return STANDARD_CARRIER_FIELDS.filter((f) => named.has(f));
}

/**
 * Widening, as the seed does it: a provider that refuses reasoning_content (the most widely accepted
 * carrier) will refuse its aliases too, and reasoning / reasoning_details travel together on the
 * aggregators. Widening is what lets the single retry succeed instead of meeting the next alias.
 */
export function widen(named: readonly StandardCarrierField[]): StandardCarrierField[] {
  const out = new Set<StandardCarrierField>();
  for (const field of named) {
    if (field === 'reasoning_content') STANDARD_CARRIER_FIELDS.forEach((f) => out.add(f));
    else {
      out.add('reasoning');
      out.add('reasoning_details');
    }
  }
  return STANDARD_CARRIER_FIELDS.filter((f) => out.has(f));
}

/**
 * Decides whether a provider error is an unknown-field rejection of a carrier that was sent, and if
 * so which fields to withhold from now on. Returns null for everything else: 5xx, a message without
 * the unknown-field phrasing (a bare "Provider returned error"), a complaint naming a field that was
 * not sent (already withheld: no loop), and on a must-echo route a complaint about reasoning_content
 * (there it is a value complaint; dropping the field would break every later turn).
 */
export function detectUnknownField(
  status: number | null | undefined,
  body: unknown,
  sentFields: readonly StandardCarrierField[],
  tier: Tier,
  phrasings: UnknownFieldPhrasings = defaultUnknownFieldPhrasings(),
): StandardCarrierField[] | null {
  if (status !== undefined && status !== null && status !== 0 && (status < 400 || status > 499)) return null;
  const text = errorText(body);
  if (!hasUnknownFieldPhrasing(text, phrasings)) return null;
  const sent = new Set(sentFields);
  const named = carriersNamed(text).filter((f) => sent.has(f) && !(tier === 'must-echo' && f === 'reasoning_content'));
  if (named.length === 0) return null;
  const widened = widen(named).filter((f) => !(tier === 'must-echo' && f === 'reasoning_content'));
  return widened.length > 0 ? widened : null;
}
