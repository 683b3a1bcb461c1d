import type { NativeCarrierRecord, ToolCall } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

export const COPILOT_NATIVE_KEY = 'copilot';

/**
 * What Copilot's chat-completions wire carries outside the standard shape (karthink/gptel#1384,
 * earendil-works/pi#1502): readable `reasoning_text`, the opaque round-trip blob
 * `reasoning_opaque`, and a `thought_signature` on a tool call's function (Gemini via Copilot,
 * per the seed). Only the latest opaque and signature of an answer count: Claude on Copilot
 * sends a new opaque before each tool call and clients replay only the last one.
 *
 * The readable text is kept once, as the message's `reasoning`; the record only says that it was
 * Copilot's reasoning_text (`reasoning_text: true`), so no conversation text is duplicated into
 * the private record. `thought_signature_call` is the index of the tool call it came on.
 */
export interface CopilotNativeFields {
  /**
   * true: the message's `reasoning` is the reasoning_text; a string is the text itself (stores that kept it in the
   * record).
   */
  reasoning_text?: true | string;
  reasoning_opaque?: string;
  thought_signature?: string;
  thought_signature_call?: number;
}

const usable = (v: unknown): v is string => typeof v === 'string' && v !== '';
const index = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function clean(fields: {
  reasoning_text?: unknown;
  reasoning_opaque?: unknown;
  thought_signature?: unknown;
  thought_signature_call?: unknown;
}): CopilotNativeFields {
  const out: CopilotNativeFields = {};
  // The text goes back only beside its opaque.
  if ((fields.reasoning_text === true || usable(fields.reasoning_text)) && usable(fields.reasoning_opaque))
    out.reasoning_text = fields.reasoning_text;
  if (usable(fields.reasoning_opaque)) out.reasoning_opaque = fields.reasoning_opaque;
  if (usable(fields.thought_signature) && index(fields.thought_signature_call)) {
    out.thought_signature = fields.thought_signature;
    out.thought_signature_call = fields.thought_signature_call;
  }
  return out;
}

export function copilotNativeRecord(route: string, fields: CopilotNativeFields): NativeCarrierRecord | undefined {
  const out = clean(fields);
  if (out.reasoning_opaque === undefined && out.thought_signature === undefined) return undefined;
  return { route, fields: out as Record<string, unknown> };
}

export function readCopilotNativeFields(fields: Record<string, unknown> | undefined): CopilotNativeFields {
  return fields ? clean(fields) : {};
}

/** The standard tool call without Copilot's signature: canonical history must not carry it to other routes. */
export function plainToolCall(raw: unknown, index: number): ToolCall {
  const call = isPlainObject(raw) ? raw : {};
  const fn = isPlainObject(call.function) ? call.function : {};
  return {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`,
    type: 'function',
    function: {
      name: typeof fn.name === 'string' ? fn.name : '',
      arguments: typeof fn.arguments === 'string' ? fn.arguments : '',
    },
  };
}
