import type { History, Message, ReasoningDetail } from '../../../shared/history/history.js';
import { selectCarriers } from '../../policy/select-carriers.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepMerge, isPlainObject } from '../../../shared/objects/deep-merge.js';
import { replaysVerbatim } from '../../history/server-carriers.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import {
  readFunctionCallIds,
  readResponsesItems,
  RESPONSES_DETAIL_FORMAT,
  type ResponsesItemRecord,
} from './responses-native.js';

type Item = Record<string, unknown>;

function textOf(content: Message['content']): string {
  if (content === null) return '';
  return typeof content === 'string' ? content : content.map((p) => p.text).join('');
}

/**
 * Stored Responses reasoning (OpenRouter-shaped items sharing an `rs_` id) -> reasoning input
 * items, in order. An item without encrypted_content is not sent: with `store: false` the API
 * cannot look it up ("Item with id 'rs_…' not found. Items are not persisted when `store` is set
 * to false", vercel/ai#7543). Reasoning from other providers (Anthropic thinking, plain text) has
 * no Responses form and stays out.
 */
export function reasoningItems(details: readonly ReasoningDetail[]): Item[] {
  const byId = new Map<string, { summary: Array<{ type: 'summary_text'; text: string }>; encrypted?: string }>();
  for (const d of details) {
    if (d.format !== RESPONSES_DETAIL_FORMAT || typeof d.id !== 'string' || d.id === '') continue;
    const entry = byId.get(d.id) ?? { summary: [] };
    if (d.type === 'reasoning.summary') entry.summary.push({ type: 'summary_text', text: d.summary });
    else if (d.type === 'reasoning.encrypted') entry.encrypted = d.data;
    byId.set(d.id, entry);
  }
  return [...byId.entries()]
    .filter(([, e]) => e.encrypted !== undefined)
    .map(([id, e]) => ({ type: 'reasoning', id, summary: e.summary, encrypted_content: e.encrypted }));
}

function assistantItems(message: Message, policy: RoutePolicy, options: RequestOptions): Item[] {
  const carriers = selectCarriers(message, policy, options.omit);
  const reasoning = reasoningItems(carriers.reasoning_details ?? []);
  // fc_ ids pair with their reasoning item: send them only when that reasoning goes too.
  const fcIds = reasoning.length > 0 ? readFunctionCallIds(carriers.native) : {};
  const text = textOf(message.content);
  const calls = (message.tool_calls ?? []).map((call) => {
    const id = fcIds[call.id];
    return {
      type: 'function_call',
      ...(id !== undefined ? { id } : {}),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    };
  });
  const layout = readResponsesItems(carriers.native);
  const inOrder = layout ? itemsInOrder(layout, reasoning, text, calls, policy) : undefined;
  if (inOrder) return inOrder;
  const items: Item[] = [...reasoning];
  if (text !== '') items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  items.push(...calls);
  return items;
}

/**
 * The turn's items in the order the answer gave them, built-in tool items verbatim and message
 * annotations kept, when the route's own record still fits the message (same text length, same
 * number of calls); otherwise undefined and the turn is built the standard way. A reasoning item
 * goes where it came only if it can be sent at all (it has its encrypted blob).
 */
function itemsInOrder(
  layout: readonly ResponsesItemRecord[],
  reasoning: readonly Item[],
  text: string,
  calls: readonly Item[],
  policy: RoutePolicy,
): Item[] | undefined {
  const chars = layout.reduce((n, r) => n + (r.kind === 'message' ? r.parts.reduce((m, p) => m + p.chars, 0) : 0), 0);
  if (chars !== text.length || layout.filter((r) => r.kind === 'call').length !== calls.length) return undefined;
  const byId = new Map(reasoning.map((r) => [String(r.id), r]));
  const out: Item[] = [];
  let at = 0;
  let call = 0;
  for (const r of layout) {
    if (r.kind === 'reasoning') {
      const item = byId.get(r.id);
      if (item) out.push(item);
    } else if (r.kind === 'call') out.push(calls[call++]!);
    // A compaction item goes back verbatim, but only to a route the table says reads it (server-carriers.ts).
    else if (r.kind === 'item') {
      if (replaysVerbatim(r.item, policy)) out.push({ ...r.item });
    } else {
      const content = r.parts.map((p) => ({
        type: 'output_text',
        text: text.slice(at, (at += p.chars)),
        ...(p.annotations ? { annotations: p.annotations } : {}),
      }));
      if (content.some((c) => c.text !== '')) out.push({ type: 'message', role: 'assistant', content });
    }
  }
  return out;
}

/** Chat-style tool definitions -> the flat Responses shape; anything else passes as given. */
function responsesTools(tools: unknown[]): unknown[] {
  return tools.map((tool) =>
    isPlainObject(tool) && tool.type === 'function' && isPlainObject(tool.function)
      ? { type: 'function', ...tool.function }
      : tool,
  );
}

/**
 * History -> a stateless Responses request: `store: false` and `include:
 * ["reasoning.encrypted_content"]`, so each turn's reasoning comes back as encrypted items that
 * are replayed verbatim before the function calls they produced. A model the route table lists as
 * not reasoning (policy.withoutReasoning) is asked for none: OpenAI refuses the include for such
 * models ("Encrypted content is not supported with this model.", RooCodeInc/Roo-Code#9225) and
 * has no summary to give. Which models those are is table data, never a pattern here.
 */
export function toOpenAIResponsesRequest(
  history: History,
  policy: RoutePolicy,
  options: RequestOptions = {},
): OutboundRequest {
  const input: Item[] = [];
  for (const message of history.messages) {
    if (message.role === 'assistant') input.push(...assistantItems(message, policy, options));
    else if (message.role === 'tool')
      input.push({
        type: 'function_call_output',
        call_id: message.tool_call_id ?? '',
        output: textOf(message.content),
      });
    else input.push({ role: message.role, content: textOf(message.content) });
  }
  let body: Record<string, unknown> = policy.withoutReasoning
    ? { model: policy.target.model, input, store: false }
    : {
        model: policy.target.model,
        input,
        store: false,
        include: ['reasoning.encrypted_content'],
        reasoning: { summary: 'auto' },
      };
  if (options.tools && options.tools.length > 0) body.tools = responsesTools(options.tools);
  if (options.stream) body.stream = true;
  if (Object.keys(policy.flags).length > 0) body = deepMerge(body, policy.flags);
  return {
    family: 'openai-responses',
    method: 'POST',
    path: '/responses',
    headers: { 'content-type': 'application/json' },
    body,
  };
}
