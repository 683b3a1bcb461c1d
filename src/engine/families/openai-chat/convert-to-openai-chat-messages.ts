import type { History, Message, ReasoningDetail } from '../../../shared/history/history.js';
import type { BoundUpstream, RoutePolicy } from '../../../shared/route-table/route-table.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { selectCarriers } from '../../policy/select-carriers.js';
import { SKIP_SIGNATURE } from '../thought-signature-stand-in.js';
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

/**
 * The upstream a request is routed to behind a gateway whose signatures are bound to their upstream (route
 * upstreamBinding): the one the body's provider.order[0] names; undefined when the route or request names none.
 */
export function routedUpstream(policy: RoutePolicy): BoundUpstream | undefined {
  const routing = policy.flags.provider;
  const first = isPlainObject(routing) && Array.isArray(routing.order) ? routing.order[0] : undefined;
  if (typeof first !== 'string') return undefined;
  return policy.boundUpstreams?.find((u) => first.toLowerCase().startsWith(u.slug.toLowerCase()));
}

/**
 * Whether this turn's signatures are bound to another upstream than the one this request goes to: its answer named a
 * bound upstream (`produced_by.upstream`) and the request is routed to another. That upstream refuses them (400
 * "Corrupted thought signature", OpenRouterTeam/ai-sdk-provider#491); unknown on either side, nothing changes.
 */
export function boundToAnotherUpstream(message: Message, policy: RoutePolicy): boolean {
  const producer = message.produced_by?.upstream;
  if (producer === undefined || !policy.boundUpstreams?.some((u) => u.name === producer)) return false;
  const routed = routedUpstream(policy);
  return routed !== undefined && routed.name !== producer;
}

const isSigned = (d: ReasoningDetail) =>
  d.type === 'reasoning.encrypted' || d.type === 'redacted_thinking' || typeof d.signature === 'string';

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
  // Signed and encrypted items bound to another upstream are left out; readable ones still travel. A tool-call turn
  // keeps the place of each encrypted item with Google's documented stand-in, as Gemini 3 refuses a function call of
  // the current turn without a thought signature ("Function call is missing a thought_signature").
  if (carriers.reasoning_details !== undefined && boundToAnotherUpstream(message, policy)) {
    const calls = (message.tool_calls?.length ?? 0) > 0;
    const kept = carriers.reasoning_details.flatMap((d): ReasoningDetail[] =>
      !isSigned(d) ? [d] : calls && d.type === 'reasoning.encrypted' ? [{ ...d, data: SKIP_SIGNATURE }] : [],
    );
    if (kept.length > 0) carriers.reasoning_details = kept;
    else delete carriers.reasoning_details;
  }
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
