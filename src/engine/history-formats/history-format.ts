import { HistoryFormatError } from '../../shared/errors/history-format-error.js';
import type { History } from '../../shared/history/history.js';

/** The history formats the CLI reads (`--history-format`). */
export const HISTORY_FORMAT_IDS = ['canonical', 'openai-chat', 'anthropic-messages', 'gemini-contents'] as const;
export type HistoryFormatId = (typeof HISTORY_FORMAT_IDS)[number];

export interface ConvertOptions {
  /**
   * The native key Gemini signatures are filed under (`gemini` or `vertex-gemini`): a signature
   * belongs to the surface that issued it. The CLI passes the target route's key when it has one.
   */
  geminiNativeKey?: string;
}

export interface Converted {
  history: History;
  /** What was read by a rule rather than copied (one line each, with its JSON pointer), for stderr. */
  notes: string[];
}

/**
 * One format real agents store histories in, and the way to and from the canonical history.
 * `toCanonical` keeps every byte that carries meaning (it refuses what it cannot keep);
 * `fromCanonical` writes the format's normal form back, so format -> canonical -> format is the
 * identity on normal-form input (the round-trip tests beside each converter).
 */
export interface HistoryFormat {
  id: HistoryFormatId;
  /** The shape, in words, for the hint of a refusal. */
  shape: string;
  toCanonical(value: unknown, options?: ConvertOptions): Converted;
  fromCanonical(history: History, options?: ConvertOptions): unknown;
}

export const DEFAULT_GEMINI_NATIVE_KEY = 'gemini';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses any key of `value` outside `allowed`: a key we do not know is data we would drop. */
export function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], at: string, hint: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new HistoryFormatError(
        `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        `"${key}" has no place in the canonical history`,
        hint,
      );
  }
}

export function expectString(value: unknown, at: string, what: string): string {
  if (typeof value !== 'string') throw new HistoryFormatError(at, `${what} must be a string`);
  return value;
}
