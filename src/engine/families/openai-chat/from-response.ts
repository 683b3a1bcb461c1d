import type { Carriers } from '../../history/carriers.js';
import type { Message, ProducedBy, ReasoningDetail, ToolCall } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { ResponseShapeError } from '../../../shared/errors/response-shape-error.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';

/** Reads `choices[0].message` of a chat-completions answer into an assistant message with its carriers. */
export function fromOpenAIChatResponse(body: unknown): ParsedAnswer {
  if (!isPlainObject(body) || !Array.isArray(body.choices) || !isPlainObject(body.choices[0])) {
    throw new ResponseShapeError('/choices/0', 'expected a chat-completions body with at least one choice');
  }
  const choice = body.choices[0];
  const raw = choice.message;
  if (!isPlainObject(raw)) throw new ResponseShapeError('/choices/0/message', 'expected an object');
  const carriers: Carriers = {};
  if (typeof raw.reasoning_content === 'string') carriers.reasoning_content = raw.reasoning_content;
  if (typeof raw.reasoning === 'string') carriers.reasoning = raw.reasoning;
  if (Array.isArray(raw.reasoning_details)) carriers.reasoning_details = raw.reasoning_details as ReasoningDetail[];
  const message: Message = {
    role: 'assistant',
    content: typeof raw.content === 'string' ? raw.content : null,
    ...(Array.isArray(raw.tool_calls) && raw.tool_calls.length > 0 ? { tool_calls: raw.tool_calls as ToolCall[] } : {}),
    ...carriers,
    ...producedByUpstream(body.model, body.provider, carriers.reasoning_details),
  };
  return { message, carriers, finishReason: mapOpenAIChatFinishReason(choice.finish_reason) };
}

/**
 * The model and upstream a gateway's answer names (OpenRouter's top-level `provider`, e.g. "Google AI Studio"), kept
 * on a turn that holds reasoning_details: a signature in them may be bound to that upstream (route upstreamBinding).
 */
export function producedByUpstream(
  model: unknown,
  provider: unknown,
  details: readonly ReasoningDetail[] | undefined,
): { produced_by?: ProducedBy } {
  if (typeof model !== 'string' || model === '' || typeof provider !== 'string' || provider === '') return {};
  return (details?.length ?? 0) > 0 ? { produced_by: { model, upstream: provider } } : {};
}
