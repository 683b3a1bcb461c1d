import type { History, Message, ReasoningDetail } from '../../../shared/history/history.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { selectCarriers } from '../../policy/select-carriers.js';
import type { StandardCarrierField } from '../../../shared/history/history.js';

/**
 * Anthropic-shaped items (stored by Anthropic-family routes) become OpenRouter's typed items when
 * they cross to an aggregator. The signature covers the thinking text, not the JSON envelope, so
 * this rename keeps them valid; OpenRouter-shaped items pass through as the same objects.
 */
export function toOpenRouterDetail(detail: ReasoningDetail): ReasoningDetail {
  if (detail.type === 'thinking') {
    const { type: _type, thinking, signature, ...rest } = detail;
    return {
      type: 'reasoning.text',
      text: thinking,
      ...(signature !== undefined ? { signature } : {}),
      format: 'anthropic-claude-v1',
      ...rest,
    };
  }
  if (detail.type === 'redacted_thinking') {
    const { type: _type, data, ...rest } = detail;
    return { type: 'reasoning.encrypted', data, format: 'anthropic-claude-v1', ...rest };
  }
  return detail;
}

export function convertMessage(
  message: Message,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
): Record<string, unknown> {
  const wire: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.name !== undefined) wire.name = message.name;
  if (message.tool_calls !== undefined) wire.tool_calls = message.tool_calls;
  if (message.tool_call_id !== undefined) wire.tool_call_id = message.tool_call_id;
  const carriers = selectCarriers(message, policy, omit);
  if (carriers.reasoning_content !== undefined) wire.reasoning_content = carriers.reasoning_content;
  if (carriers.reasoning !== undefined) wire.reasoning = carriers.reasoning;
  if (carriers.reasoning_details !== undefined) {
    wire.reasoning_details = carriers.reasoning_details.some(
      (d) => d.type === 'thinking' || d.type === 'redacted_thinking',
    )
      ? carriers.reasoning_details.map(toOpenRouterDetail)
      : carriers.reasoning_details;
  }
  return wire;
}

export function convertToOpenAIChatMessages(
  history: History,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
): Record<string, unknown>[] {
  return history.messages.map((m) => convertMessage(m, policy, omit));
}
