import type { Carriers } from '../../history/carriers.js';
import type { Message, ReasoningDetail, ToolCall } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason.js';
import { RESPONSES_DETAIL_FORMAT, responsesNativeRecord, type ResponsesItemRecord } from './responses-native.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

/**
 * `output` items -> the assistant message. Each reasoning item becomes OpenRouter-shaped
 * reasoning_details (one `reasoning.summary` per summary part, then one `reasoning.encrypted`
 * holding encrypted_content, all with the item's `rs_` id), which is also how an aggregator
 * carries Responses reasoning, so the turn can cross to OpenRouter unchanged. `whole` false (a
 * broken stream) leaves out every encrypted blob and the fc_ ids paired with them.
 */
export function outputToAnswer(
  output: readonly unknown[],
  status: unknown,
  incompleteReason: unknown,
  nativeKey: string,
  whole = true,
): ParsedAnswer {
  const details: ReasoningDetail[] = [];
  const summaries: string[] = [];
  const toolCalls: ToolCall[] = [];
  const fcIds: Record<string, string> = {};
  const layout: ResponsesItemRecord[] = [];
  let verbatim = false;
  let content = '';
  output.forEach((item, i) => {
    if (!isPlainObject(item)) throw new ProviderAnswerError(`output item ${i} is not an object`);
    if (typeof item.type !== 'string') throw new ProviderAnswerError(`output item ${i} has no type`);
    if (item.type === 'reasoning') {
      const id = typeof item.id === 'string' ? item.id : null;
      if (id !== null) layout.push({ kind: 'reasoning', id });
      for (const part of Array.isArray(item.summary) ? item.summary : []) {
        if (isPlainObject(part) && typeof part.text === 'string') {
          details.push({
            type: 'reasoning.summary',
            summary: part.text,
            id,
            format: RESPONSES_DETAIL_FORMAT,
            index: details.length,
          });
          summaries.push(part.text);
        }
      }
      if (whole && typeof item.encrypted_content === 'string' && item.encrypted_content !== '') {
        details.push({
          type: 'reasoning.encrypted',
          data: item.encrypted_content,
          id,
          format: RESPONSES_DETAIL_FORMAT,
          index: details.length,
        });
      }
    } else if (item.type === 'message') {
      const parts: { chars: number; annotations?: unknown[] }[] = [];
      for (const part of Array.isArray(item.content) ? item.content : []) {
        if (isPlainObject(part) && part.type === 'output_text' && typeof part.text === 'string') {
          content += part.text;
          const annotations =
            Array.isArray(part.annotations) && part.annotations.length > 0 ? part.annotations : undefined;
          if (annotations) verbatim = true;
          parts.push(annotations ? { chars: part.text.length, annotations } : { chars: part.text.length });
        }
      }
      layout.push({ kind: 'message', parts });
    } else if (item.type === 'function_call') {
      layout.push({ kind: 'call' });
      const callId = typeof item.call_id === 'string' ? item.call_id : `call_${toolCalls.length}`;
      toolCalls.push({
        id: callId,
        type: 'function',
        function: {
          name: typeof item.name === 'string' ? item.name : '',
          arguments: typeof item.arguments === 'string' ? item.arguments : '',
        },
      });
      if (typeof item.id === 'string' && item.id !== '') fcIds[callId] = item.id;
    } else {
      // A built-in tool item (web_search_call, code_interpreter_call, file_search_call,
      // image_generation_call, mcp_call, mcp_list_tools, ...) or a kind added later: well-formed,
      // kept verbatim in position. A broken stream keeps none (they may hold results half-sent).
      if (whole) layout.push({ kind: 'item', item: { ...item } });
      verbatim = true;
    }
  });
  const carriers: Carriers = {};
  if (summaries.length > 0) carriers.reasoning = summaries.join('\n\n');
  if (details.length > 0) carriers.reasoning_details = details;
  // fc_ ids pair with reasoning items; without the blobs (a broken stream) they would only cause pairing errors.
  const native = whole ? responsesNativeRecord(nativeKey, fcIds, verbatim ? layout : undefined) : undefined;
  if (native) carriers.native = native;
  const message: Message = {
    role: 'assistant',
    content: content === '' ? null : content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...carriers,
  };
  return {
    message,
    carriers,
    finishReason: mapOpenAIResponsesFinishReason(status, incompleteReason, toolCalls.length > 0),
  };
}
