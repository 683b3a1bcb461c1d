import type { NativeCarrierRecord, ToolCall } from '../../model/history.js';
import { isPlainObject } from '../../util/deep-merge.js';

export const COPILOT_NATIVE_KEY = 'copilot';

/**
 * What Copilot's chat-completions wire carries outside the standard shape (karthink/gptel#1384,
 * earendil-works/pi#1502): readable `reasoning_text`, the opaque round-trip blob
 * `reasoning_opaque`, and a `thought_signature` on a tool call's function (Gemini via Copilot,
 * per the seed). Only the latest opaque and signature of an answer count: Claude on Copilot
 * sends a new opaque before each tool call and clients replay only the last one.
 */
export interface CopilotNativeFields {
  reasoning_text?: string;
  reasoning_opaque?: string;
  thought_signature?: string;
  /** Id of the tool call the signature came on, so it goes back on the same call. */
  thought_signature_call?: string;
}

const usable = (v: unknown): v is string => typeof v === 'string' && v !== '';

export function copilotNativeRecord(route: string, fields: CopilotNativeFields): NativeCarrierRecord | undefined {
  const out: CopilotNativeFields = {};
  if (usable(fields.reasoning_text)) out.reasoning_text = fields.reasoning_text;
  if (usable(fields.reasoning_opaque)) out.reasoning_opaque = fields.reasoning_opaque;
  if (usable(fields.thought_signature) && usable(fields.thought_signature_call)) {
    out.thought_signature = fields.thought_signature;
    out.thought_signature_call = fields.thought_signature_call;
  }
  // Readable text alone is not worth a record: it travels as `reasoning` and is never replayed without its opaque.
  if (out.reasoning_opaque === undefined && out.thought_signature === undefined) return undefined;
  return { route, fields: out as Record<string, unknown> };
}

export function readCopilotNativeFields(fields: Record<string, unknown> | undefined): CopilotNativeFields {
  if (!fields) return {};
  const out: CopilotNativeFields = {};
  if (usable(fields.reasoning_text)) out.reasoning_text = fields.reasoning_text;
  if (usable(fields.reasoning_opaque)) out.reasoning_opaque = fields.reasoning_opaque;
  if (usable(fields.thought_signature) && usable(fields.thought_signature_call)) {
    out.thought_signature = fields.thought_signature;
    out.thought_signature_call = fields.thought_signature_call;
  }
  return out;
}

/** The standard tool call without Copilot's signature: canonical history must not carry it to other routes. */
export function plainToolCall(raw: unknown, index: number): ToolCall {
  const call = isPlainObject(raw) ? raw : {};
  const fn = isPlainObject(call.function) ? call.function : {};
  return {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`,
    type: 'function',
    function: { name: typeof fn.name === 'string' ? fn.name : '', arguments: typeof fn.arguments === 'string' ? fn.arguments : '' },
  };
}
