import { UnreadableGeminiRecordError } from '../../../shared/errors/unreadable-gemini-record-error.js';
import type { NativeCarrierRecord } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/** The native key the Gemini API route owns; Vertex has its own (its signatures are its own). */
export const GEMINI_NATIVE_KEY = 'gemini';

/**
 * One part of a model turn as Gemini sent it, in order. A signature belongs to a position in
 * this sequence (Gemini: "pass it back exactly as received", on the part it came on), so the
 * record keeps the sequence. It holds no readable text: text parts say how many characters of
 * the message content they held, thought parts how many of its `reasoning`, and `call` points
 * into tool_calls. The record is then nothing but positions and signatures, and no byte of the
 * conversation's text is duplicated into it (so "never leaves its route" can be checked by value).
 */
export type GeminiPartRecord =
  | { kind: 'thought'; chars: number; thoughtSignature?: string }
  | { kind: 'text'; chars: number; thoughtSignature?: string }
  | { kind: 'functionCall'; call: number; thoughtSignature?: string }
  /**
   * A part the message has no field for, verbatim with its signature: executableCode,
   * codeExecutionResult, toolCall / toolResponse (built-in tools such as file search), inlineData,
   * fileData, and kinds Google adds later. Gemini 3 signs some of them; the signature stays on
   * the part it came on ("pass it back exactly as received").
   */
  | { kind: 'part'; part: Record<string, unknown> };

export interface GeminiNativeFields {
  parts: GeminiPartRecord[];
}

export { SKIP_SIGNATURE } from '../thought-signature-stand-in.js';

/** "An empty or non-string signature is dropped" (seed): such a value is refused as corrupted. */
export function usableSignature(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/**
 * Reads a record's part layout back. A malformed part is refused (UnreadableGeminiRecordError), never
 * skipped; an empty or non-string signature is left off its part, as the seed does ("Corrupted
 * thought signature" otherwise), since the part itself is still readable.
 */
export function readGeminiNativeFields(fields: Record<string, unknown> | undefined): GeminiPartRecord[] | undefined {
  if (!fields) return undefined;
  if (!Array.isArray(fields.parts))
    throw new UnreadableGeminiRecordError('', 'has neither "parts" nor a flat "thoughtSignature"');
  return fields.parts.map((raw, i) => {
    if (!isPlainObject(raw)) throw new UnreadableGeminiRecordError(`/parts/${i}`, 'is not an object');
    const signature = usableSignature(raw.thoughtSignature);
    const sig = signature !== undefined ? { thoughtSignature: signature } : {};
    if ((raw.kind === 'thought' || raw.kind === 'text') && count(raw.chars))
      return { kind: raw.kind, chars: raw.chars, ...sig };
    if (raw.kind === 'functionCall' && count(raw.call))
      return { kind: 'functionCall' as const, call: raw.call, ...sig };
    if (raw.kind === 'part' && isPlainObject(raw.part)) return { kind: 'part' as const, part: raw.part };
    throw new UnreadableGeminiRecordError(
      `/parts/${i}`,
      `is not a text, thought, functionCall or verbatim part (${JSON.stringify(raw)})`,
    );
  });
}

/**
 * The flat form many agents store, `{"thoughtSignature": "..."}`, read by Google's documented
 * rule (ai.google.dev/gemini-api/docs/thought-signatures): in a step with function calls the
 * signature belongs on the first functionCall part; in a turn without one, on its last part. The
 * layout is the one a record-less turn is rebuilt with (visible text, then the calls).
 */
export function layoutFromFlatSignature(signature: string, contentLength: number, calls: number): GeminiPartRecord[] {
  const layout: GeminiPartRecord[] = [];
  // Without calls the text part is the turn's only (so last) part; with calls, the first call carries it.
  if (calls === 0) layout.push({ kind: 'text', chars: contentLength, thoughtSignature: signature });
  else if (contentLength > 0) layout.push({ kind: 'text', chars: contentLength });
  for (let call = 0; call < calls; call++)
    layout.push(
      call === 0 ? { kind: 'functionCall', call, thoughtSignature: signature } : { kind: 'functionCall', call },
    );
  return layout;
}

/** True for the flat `{"thoughtSignature": "..."}` record form. */
export function isFlatGeminiRecord(
  fields: Record<string, unknown> | undefined,
): fields is { thoughtSignature: unknown } {
  return fields !== undefined && !('parts' in fields) && 'thoughtSignature' in fields;
}

export function geminiNativeRecord(route: string, parts: GeminiPartRecord[]): NativeCarrierRecord {
  const fields: GeminiNativeFields = { parts };
  return { route, fields: fields as unknown as Record<string, unknown> };
}
