import type { History, Message, StandardCarrierField } from '../../../shared/history/history.js';
import { selectCarriers } from '../../policy/select-carriers.js';
import type { ReplayPolicy, RoutePolicy } from '../../../shared/route-table/route-table.js';
import { anthropicReasoningItems, redactedCrosses } from '../anthropic-messages/anthropic-reasoning-items.js';
import { contentText } from '../content-text.js';
import { parseToolArguments } from '../tool-arguments.js';
import { bedrockReplayPolicy, splitPoint } from './replay-policy.js';

export type ConverseReasoning = { reasoningText: { text: string; signature?: string } } | { redactedContent: string };

export type ConverseBlock =
  | { text: string }
  | { reasoningContent: ConverseReasoning }
  | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } }
  | { toolResult: { toolUseId: string; content: { text: string }[] } };

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseBlock[];
}

export interface ConversePrompt {
  system?: { text: string }[];
  messages: ConverseMessage[];
}

/**
 * One assistant turn's reasoning under the model's replay policy.
 * - signed: every signed reasoningText and every redactedContent, verbatim and in stored order;
 *   unsigned text is left out (Claude answers `thinking.signature: Field required`).
 * - unsigned: the readable text only, never a signature (such models answer "This model doesn't
 *   support the reasoningContent.reasoningText.signature field") and never redacted blobs.
 * - strip: nothing before the split point; inside the current tool loop, as unsigned.
 * The stored redacted `data` is already base64, which is how a blob travels in Converse JSON.
 */
export function reasoningForPolicy(
  message: Message,
  replay: ReplayPolicy,
  beforeSplit: boolean,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
): ConverseBlock[] {
  if (replay === 'strip' && beforeSplit) return [];
  const items = anthropicReasoningItems(selectCarriers(message, policy, omit).reasoning_details);
  const out: ConverseBlock[] = [];
  for (const item of items) {
    if (replay === 'signed') {
      // A blob the Messages API issued is not in Converse's encoding: it does not cross.
      if (item.type === 'redacted_thinking') {
        if (redactedCrosses(item, 'bedrock-converse')) out.push({ reasoningContent: { redactedContent: item.data } });
      } else if (item.signature)
        out.push({ reasoningContent: { reasoningText: { text: item.thinking, signature: item.signature } } });
    } else if (item.type === 'thinking' && item.thinking !== '') {
      out.push({ reasoningContent: { reasoningText: { text: item.thinking } } });
    }
  }
  return out;
}

/**
 * Canonical history -> Converse `system` + `messages`: tool results become `toolResult` blocks in
 * a user turn, consecutive user-side messages merge (Converse wants roles to alternate), and each
 * assistant turn is reasoning, then text, then toolUse. `history` is never modified.
 */
export function convertToConverseMessages(
  history: History,
  policy: RoutePolicy,
  omit?: ReadonlySet<StandardCarrierField>,
): ConversePrompt {
  const replay = bedrockReplayPolicy(policy);
  const split = splitPoint(history);
  const system: { text: string }[] = [];
  const messages: ConverseMessage[] = [];
  const userTurn = (): ConverseMessage => {
    const last = messages.at(-1);
    if (last?.role === 'user') return last;
    const turn: ConverseMessage = { role: 'user', content: [] };
    messages.push(turn);
    return turn;
  };
  history.messages.forEach((message, at) => {
    const text = contentText(message.content);
    switch (message.role) {
      case 'system':
        if (text !== '') system.push({ text });
        break;
      case 'user':
        if (text !== '') userTurn().content.push({ text });
        break;
      case 'tool':
        userTurn().content.push({ toolResult: { toolUseId: message.tool_call_id ?? '', content: [{ text }] } });
        break;
      case 'assistant': {
        const content = reasoningForPolicy(message, replay, at < split, policy, omit);
        if (text !== '') content.push({ text });
        (message.tool_calls ?? []).forEach((call, j) => {
          content.push({
            toolUse: {
              toolUseId: call.id,
              name: call.function.name,
              input: parseToolArguments(call.function.arguments, `/messages/${at}/tool_calls/${j}/function/arguments`),
            },
          });
        });
        // An empty turn is refused by Converse; leave it out and let the user turns around it merge.
        if (content.length > 0) messages.push({ role: 'assistant', content });
        break;
      }
    }
  });
  return system.length > 0 ? { system, messages } : { messages };
}
