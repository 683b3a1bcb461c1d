import type { History, Message, StandardCarrierField } from '../../../shared/history/history.js';
import { selectCarriers } from '../../policy/select-carriers.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { contentText } from '../content-text.js';
import { parseToolArguments } from '../tool-arguments.js';
import { replaysVerbatim } from '../../history/server-carriers.js';
import { modelMatches } from '../../../shared/route-table/model-match.js';
import { readAnthropicNativeFields, rebuildAnthropicBlocks } from './anthropic-native.js';
import { anthropicReasoningItems, isReplayableToClaude, redactedCrosses } from './anthropic-reasoning-items.js';

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string }
  /** A block kept verbatim from the answer it came in (server tools), replayed only to its own route. */
  | ({ type: string } & Record<string, unknown>);

export interface AnthropicWireMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicPrompt {
  system?: { type: 'text'; text: string }[];
  messages: AnthropicWireMessage[];
}

/**
 * The assistant turn's stored thinking comes first, byte for byte and in stored order; then its
 * text, then its tool calls. Unsigned thinking is left out: Claude refuses a thinking block without
 * a valid signature (`thinking.signature: Field required` / `Invalid signature`), and readable text
 * from another model has no way to become one.
 */
function assistantBlocks(
  message: Message,
  at: number,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
  unbound = false,
): AnthropicBlock[] {
  const selected = selectCarriers(message, policy, omit);
  // Thinking bound to a prefix that has changed since, or to another model, is left out, not sent to a 400
  // (boundPrefixChanged, boundToAnotherModel).
  const items = unbound ? [] : anthropicReasoningItems(selected.reasoning_details);
  const reasoning: AnthropicBlock[] = [];
  for (const item of items) {
    if (!isReplayableToClaude(item) || !redactedCrosses(item, 'anthropic-messages')) continue;
    reasoning.push(
      item.type === 'thinking'
        ? { type: 'thinking', thinking: item.thinking, signature: item.signature! }
        : { type: 'redacted_thinking', data: item.data },
    );
  }
  const text = contentText(message.content);
  const calls: AnthropicBlock[] = (message.tool_calls ?? []).map((call, j) => ({
    type: 'tool_use',
    id: call.id,
    name: call.function.name,
    input: parseToolArguments(call.function.arguments, `/messages/${at}/tool_calls/${j}/function/arguments`),
  }));
  // The route that issued the answer gets its blocks back in the order they came, server tool
  // blocks and citations included (anthropic-native.ts); a record that no longer fits is ignored.
  const recorded = readAnthropicNativeFields(selected.native);
  const layout = unbound ? recorded?.filter((b) => b.kind !== 'think') : recorded;
  const rebuilt = layout
    ? rebuildAnthropicBlocks<AnthropicBlock>(layout, {
        reasoning,
        reasoningCount: items.length,
        text,
        calls,
        textBlock: (t, extra) => ({ type: 'text', text: t, ...extra }),
        // A compaction block goes back verbatim, but only to a route the table says reads it (server-carriers.ts).
        verbatim: (block) => (replaysVerbatim(block, policy) ? { ...block, type: String(block.type) } : undefined),
      })
    : undefined;
  if (rebuilt) return rebuilt;
  // Anthropic refuses empty text blocks, and an assistant tool turn often has no text at all.
  return [...reasoning, ...(text !== '' ? [{ type: 'text' as const, text }] : []), ...calls];
}

/**
 * Canonical history -> Messages API `system` + `messages`. System messages move to `system`; tool
 * results become `tool_result` blocks in a user turn, and consecutive user-side messages (tool
 * results, then any user text) merge into one turn, since the API wants roles to alternate and all
 * results of one tool round in the user turn that follows it. Nothing in `history` is modified.
 */
/**
 * Where thinking bound to its prefix (route table thinkingBinding: Claude Fable 5.1 and later) can no longer be
 * replayed: the system prompt is every system message of the history, so a system message appended after an
 * assistant turn changed the prefix that turn's thinking was produced under. The API would refuse such a block
 * ("The block is bound to a different conversation") or drop it; the engine leaves it out. Thinking produced after
 * the change stays valid. -1: nothing is stale.
 */
export function boundPrefixChanged(history: History, policy: RoutePolicy): number {
  if (!policy.bindsThinking) return -1;
  const firstAssistant = history.messages.findIndex((m) => m.role === 'assistant');
  if (firstAssistant < 0) return -1;
  for (let i = history.messages.length - 1; i > firstAssistant; i--)
    if (history.messages[i]!.role === 'system') return i;
  return -1;
}

/**
 * Whether this assistant turn's thinking is bound to a model other than the target: the answer named the model that
 * wrote it (`produced_by`), that model binds (route table thinkingBinding), and the request goes to another model (a
 * fallback, or a user switching models mid-session). The binding names the model too, so the API would refuse the
 * block (input_transformations reason model_binding_mismatch) or drop it; the engine leaves it out. A turn whose model
 * is unknown, or was written by a model that does not bind, is sent as before.
 */
export function boundToAnotherModel(message: Message, policy: RoutePolicy): boolean {
  const producer = message.produced_by?.model;
  if (producer === undefined || !policy.bindingModels) return false;
  if (!modelMatches(producer, { models: policy.bindingModels })) return false;
  return producer.toLowerCase() !== policy.target.model.toLowerCase();
}

export function convertToAnthropicMessages(
  history: History,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
): AnthropicPrompt {
  const changedAt = boundPrefixChanged(history, policy);
  const system: { type: 'text'; text: string }[] = [];
  const messages: AnthropicWireMessage[] = [];
  const userTurn = (): AnthropicWireMessage => {
    const last = messages.at(-1);
    if (last?.role === 'user') return last;
    const turn: AnthropicWireMessage = { role: 'user', content: [] };
    messages.push(turn);
    return turn;
  };
  history.messages.forEach((message, at) => {
    switch (message.role) {
      case 'system': {
        const text = contentText(message.content);
        if (text !== '') system.push({ type: 'text', text });
        break;
      }
      case 'user': {
        const text = contentText(message.content);
        if (text !== '') userTurn().content.push({ type: 'text', text });
        break;
      }
      case 'tool':
        userTurn().content.push({
          type: 'tool_result',
          tool_use_id: message.tool_call_id ?? '',
          content: contentText(message.content),
        });
        break;
      case 'assistant': {
        // Nothing this wire can say (no text, no calls, only foreign reasoning): an empty turn is a
        // 400 ("all messages must have non-empty content"), so the turn is left out and the user
        // turns around it merge.
        const unbound = at < changedAt || boundToAnotherModel(message, policy);
        const content = assistantBlocks(message, at, policy, omit, unbound);
        if (content.length > 0) messages.push({ role: 'assistant', content });
        break;
      }
    }
  });
  return system.length > 0 ? { system, messages } : { messages };
}
