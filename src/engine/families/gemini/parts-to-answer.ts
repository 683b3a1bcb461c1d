import { createHash } from 'node:crypto';
import type { Carriers } from '../../history/carriers.js';
import type { Message, ToolCall } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { geminiNativeRecord, usableSignature, type GeminiPartRecord } from './gemini-native.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

/**
 * A Gemini call id when the response has none: derived from the call, so the same answer read
 * from a body and from a stream gets the same id.
 */
function callId(name: string, args: string, index: number): string {
  return `call_${createHash('sha256').update(`${name}\u0000${args}`).digest('hex').slice(0, 12)}_${index}`;
}

/**
 * A model turn's parts (body or merged stream) -> the assistant message. Thought text becomes the
 * readable `reasoning` carrier, visible text the content; signatures and the parts the message has
 * no field for go to the native record only, which is left out when `whole` is false (a broken
 * stream) or when it would hold nothing (no signature, no other part).
 */
export function partsToAnswer(
  parts: readonly unknown[],
  finishReason: unknown,
  nativeKey: string,
  whole = true,
): ParsedAnswer {
  const layout: GeminiPartRecord[] = [];
  const toolCalls: ToolCall[] = [];
  let content = '';
  let thoughts = '';
  parts.forEach((part, i) => {
    if (!isPlainObject(part)) throw new ProviderAnswerError(`part ${i} is not an object`);
    const signature = usableSignature(part.thoughtSignature);
    const sig = signature !== undefined ? { thoughtSignature: signature } : {};
    if (isPlainObject(part.functionCall)) {
      const name = typeof part.functionCall.name === 'string' ? part.functionCall.name : '';
      const args = JSON.stringify(part.functionCall.args ?? {});
      const id =
        typeof part.functionCall.id === 'string' && part.functionCall.id !== ''
          ? part.functionCall.id
          : callId(name, args, toolCalls.length);
      layout.push({ kind: 'functionCall', call: toolCalls.length, ...sig });
      toolCalls.push({ id, type: 'function', function: { name, arguments: args } });
    } else if (part.thought === true) {
      const text = typeof part.text === 'string' ? part.text : '';
      thoughts += text;
      layout.push({ kind: 'thought', chars: text.length, ...sig });
    } else if (typeof part.text === 'string') {
      content += part.text;
      layout.push({ kind: 'text', chars: part.text.length, ...sig });
    } else if (Object.keys(part).every((k) => k === 'thoughtSignature')) {
      // A part holding only a signature: keep its position so it goes back where it came from.
      if (signature !== undefined) layout.push({ kind: 'text', chars: 0, ...sig });
    } else {
      // Any other kind (executableCode, codeExecutionResult, toolCall, toolResponse, inlineData,
      // fileData, or one Google adds later) is well-formed: kept verbatim, signature and all.
      layout.push({ kind: 'part', part: { ...part } });
    }
  });
  const carriers: Carriers = {};
  if (thoughts !== '') carriers.reasoning = thoughts;
  // A broken stream keeps nothing opaque, and verbatim parts may hold signatures of their own.
  if (whole && layout.some((p) => p.kind === 'part' || p.thoughtSignature !== undefined))
    carriers.native = geminiNativeRecord(nativeKey, layout);
  const message: Message = {
    role: 'assistant',
    content: content === '' ? null : content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...carriers,
  };
  return { message, carriers, finishReason: mapGeminiFinishReason(finishReason, toolCalls.length > 0) };
}
