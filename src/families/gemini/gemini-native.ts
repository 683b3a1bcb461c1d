import type { NativeCarrierRecord } from '../../model/history.js';
import { isPlainObject } from '../../util/deep-merge.js';

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

/**
 * Google's documented stand-in for a function call that has no signature of its own (a turn
 * written by another model or route, or injected by the client): "skip_thought_signature_validator"
 * is accepted by both the Gemini API and Vertex (quoted from both docs in pydantic-ai; see
 * provider-wire-facts §8). Like the must-echo pad it is not reasoning; it only keeps Gemini 3
 * from refusing the whole history with "Function call is missing a thought_signature".
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** "An empty or non-string signature is dropped" (seed): such a value is refused as corrupted. */
export function usableSignature(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads a record's fields back, ignoring anything malformed rather than replaying it. */
export function readGeminiNativeFields(fields: Record<string, unknown> | undefined): GeminiPartRecord[] | undefined {
  if (!fields || !Array.isArray(fields.parts)) return undefined;
  const parts: GeminiPartRecord[] = [];
  for (const raw of fields.parts) {
    if (!isPlainObject(raw)) return undefined;
    const signature = usableSignature(raw.thoughtSignature);
    const sig = signature !== undefined ? { thoughtSignature: signature } : {};
    const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
    if ((raw.kind === 'thought' || raw.kind === 'text') && count(raw.chars)) parts.push({ kind: raw.kind, chars: raw.chars, ...sig });
    else if (raw.kind === 'functionCall' && count(raw.call)) parts.push({ kind: 'functionCall', call: raw.call, ...sig });
    else if (raw.kind === 'part' && isPlainObject(raw.part)) parts.push({ kind: 'part', part: raw.part });
    else return undefined;
  }
  return parts;
}

export function geminiNativeRecord(route: string, parts: GeminiPartRecord[]): NativeCarrierRecord {
  const fields: GeminiNativeFields = { parts };
  return { route, fields: fields as unknown as Record<string, unknown> };
}
