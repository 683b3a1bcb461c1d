import type { Carriers } from '../../history/carriers.js';
import type { Message } from '../../../shared/history/history.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { fromOpenAIChatResponse } from '../openai-chat/from-response.js';
import { COPILOT_NATIVE_KEY, copilotNativeRecord, plainToolCall } from './copilot-native.js';
import { mapCopilotFinishReason } from './map-copilot-finish-reason.js';

/**
 * The assistant message plus its Copilot carriers. `reasoning_text` also becomes the readable
 * `reasoning` carrier, so other routes can see the text; the opaque and the signature stay in
 * the native record and reach the Copilot route only.
 */
export function assembleCopilotAnswer(
  chat: ParsedAnswer,
  native: { text?: string; opaque?: string; signature?: string; signatureCall?: number },
  nativeKey: string,
  finishReason: string | null,
): ParsedAnswer {
  const carriers: Carriers = { ...chat.carriers };
  if (native.text !== undefined && native.text !== '' && carriers.reasoning === undefined)
    carriers.reasoning = native.text;
  // Copilot reads these back on tool-call messages only (opencode#4468); on any other answer a record would never
  // travel.
  const toolTurn = (chat.message.tool_calls?.length ?? 0) > 0;
  const record =
    toolTurn &&
    copilotNativeRecord(nativeKey, {
      ...(native.text !== undefined && native.text !== '' ? { reasoning_text: true as const } : {}),
      ...(native.opaque !== undefined ? { reasoning_opaque: native.opaque } : {}),
      ...(native.signature !== undefined ? { thought_signature: native.signature } : {}),
      ...(native.signatureCall !== undefined ? { thought_signature_call: native.signatureCall } : {}),
    });
  if (record) carriers.native = record;
  const { reasoning_content: _a, reasoning: _b, reasoning_details: _c, native: _d, ...rest } = chat.message;
  const message: Message = { ...rest, ...carriers };
  return { message, carriers, finishReason };
}

export function fromCopilotResponse(body: unknown, policy?: RoutePolicy): ParsedAnswer {
  const chat = fromOpenAIChatResponse(body);
  const choice = (body as { choices: Array<Record<string, unknown>> }).choices[0]!;
  const raw = choice.message as Record<string, unknown>;
  const toolCalls = Array.isArray(raw.tool_calls) ? raw.tool_calls.map(plainToolCall) : [];
  if (toolCalls.length > 0) chat.message.tool_calls = toolCalls;
  let signature: string | undefined;
  let signatureCall: number | undefined;
  (Array.isArray(raw.tool_calls) ? raw.tool_calls : []).forEach((call, i) => {
    const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : {};
    if (typeof fn.thought_signature === 'string' && fn.thought_signature !== '') {
      signature = fn.thought_signature;
      signatureCall = i;
    }
  });
  return assembleCopilotAnswer(
    chat,
    {
      ...(typeof raw.reasoning_text === 'string' ? { text: raw.reasoning_text } : {}),
      ...(typeof raw.reasoning_opaque === 'string' ? { opaque: raw.reasoning_opaque } : {}),
      ...(signature !== undefined ? { signature, signatureCall } : {}),
    },
    policy?.native ?? COPILOT_NATIVE_KEY,
    mapCopilotFinishReason(choice.finish_reason),
  );
}
