import type { History, Message } from '../../../shared/history/history.js';
import { isToolCallTurn, selectCarriers } from '../../policy/select-carriers.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import { convertMessage } from '../openai-chat/convert-to-openai-chat-messages.js';
import { toOpenAIChatRequest } from '../openai-chat/to-request.js';
import { readCopilotNativeFields } from './copilot-native.js';

/**
 * Copilot's own carriers go back on tool-call assistant messages only (anomalyco/opencode#4468:
 * "only if it is a tool call message"); reasoning_text only beside its opaque, since the text
 * without the blob it belongs to is what Copilot calls an invalid request body.
 */
function copilotMessage(message: Message, policy: RoutePolicy, options: RequestOptions): Record<string, unknown> {
  const wire = convertMessage(message, policy, options.omit);
  if (!isToolCallTurn(message)) return wire;
  const native = readCopilotNativeFields(selectCarriers(message, policy, options.omit).native);
  if (native.reasoning_opaque !== undefined) {
    if (typeof native.reasoning_text === 'string') wire.reasoning_text = native.reasoning_text;
    else if (native.reasoning_text === true && message.reasoning) wire.reasoning_text = message.reasoning;
    wire.reasoning_opaque = native.reasoning_opaque;
  }
  if (native.thought_signature !== undefined) {
    wire.tool_calls = message.tool_calls!.map((call, i) =>
      i === native.thought_signature_call
        ? { ...call, function: { ...call.function, thought_signature: native.thought_signature } }
        : call,
    );
  }
  return wire;
}

export function toCopilotRequest(history: History, policy: RoutePolicy, options: RequestOptions = {}): OutboundRequest {
  const chat = toOpenAIChatRequest(history, policy, options);
  const body = { ...chat.body, messages: history.messages.map((m) => copilotMessage(m, policy, options)) };
  return { ...chat, family: 'copilot', body };
}
