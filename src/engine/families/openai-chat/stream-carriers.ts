import type { Carriers } from '../../history/carriers.js';
import type { Message, ReasoningDetail, ToolCall } from '../../../shared/history/history.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { parseEventJson, readStreamEvents, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { mapOpenAIChatFinishReason } from './map-openai-chat-finish-reason.js';
import { producedByUpstream } from './from-response.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

const SIGNED_OR_OPAQUE = (d: ReasoningDetail) =>
  d.type === 'reasoning.encrypted' || d.type === 'redacted_thinking' || typeof d.signature === 'string';

/**
 * Joins one streamed reasoning_details piece into the items so far, by OpenRouter's rule: pieces
 * with the same `index` are one item ("the complete reasoning sequence is built by concatenating
 * all chunks in order"). A final text-less piece may carry only the signature; it must be kept
 * (losing it is OpenRouterTeam/ai-sdk-provider#423's "Invalid signature").
 */
export function mergeReasoningDetail(items: ReasoningDetail[], piece: Record<string, unknown>): void {
  const index = typeof piece.index === 'number' ? piece.index : undefined;
  const at = index !== undefined ? items.findIndex((d) => d.index === index) : items.length - 1;
  const prior = at >= 0 ? items[at] : undefined;
  const joins =
    prior !== undefined && (index !== undefined || (prior.index === undefined && prior.type === piece.type));
  if (!prior || !joins) {
    items.push({ ...piece } as ReasoningDetail);
    return;
  }
  const merged: Record<string, unknown> = { ...prior };
  for (const [key, value] of Object.entries(piece)) {
    if (value === null || value === undefined) continue;
    if ((key === 'text' || key === 'summary' || key === 'data') && typeof value === 'string') {
      merged[key] = (typeof merged[key] === 'string' ? (merged[key] as string) : '') + value;
    } else if (key === 'signature') {
      if (typeof value === 'string' && value !== '') merged[key] = value;
    } else if (merged[key] === undefined || merged[key] === null) {
      merged[key] = value;
    }
  }
  items[at] = merged as ReasoningDetail;
}

/** Extra per-delta reading for families built on the chat wire (Copilot); they assemble their own answer. */
export interface ChatDeltaReader {
  readDelta(delta: Record<string, unknown>): void;
}

/**
 * Chat-completions SSE chunks -> the ParsedAnswer fromOpenAIChatResponse gives for the same
 * answer unstreamed. Only choice 0 is read, as fromOpenAIChatResponse reads only choice 0.
 */
export class OpenAIChatAccumulator implements StreamAccumulator {
  private content = '';
  private readonly texts: Partial<Record<'reasoning_content' | 'reasoning', string>> = {};
  private details: ReasoningDetail[] | undefined;
  private readonly calls = new Map<number, { id?: string; name: string; arguments: string }>();
  private finish: unknown = null;
  private done = false;
  /** The model and upstream the chunks name (a gateway's top-level `provider`). */
  private model: unknown;
  private provider: unknown;
  /** Named events a chat stream does not define (some gateways send keep-alives so), skipped. */
  readonly notes: string[] = [];

  constructor(private readonly extra?: ChatDeltaReader) {}

  get finished(): boolean {
    return this.done || this.finish !== null;
  }

  accept(event: SseEvent): void {
    if (event.event !== undefined && event.event !== 'message') {
      this.notes.push(`skipped an event of unknown type "${event.event}"`);
      return;
    }
    if (event.data.trim() === '[DONE]') {
      this.done = true;
      return;
    }
    if (this.done) throw new ProviderAnswerError('data after [DONE]');
    const chunk = parseEventJson(event);
    if (!isPlainObject(chunk)) throw new ProviderAnswerError('expected a chat.completion.chunk object');
    if (chunk.error !== undefined) {
      const message =
        isPlainObject(chunk.error) && typeof chunk.error.message === 'string'
          ? chunk.error.message
          : JSON.stringify(chunk.error);
      throw new ProviderAnswerError(`the provider sent an error in the stream: ${message}`);
    }
    if (typeof chunk.model === 'string') this.model = chunk.model;
    if (typeof chunk.provider === 'string') this.provider = chunk.provider;
    if (!Array.isArray(chunk.choices))
      throw new ProviderAnswerError('expected a chat.completion.chunk with a choices array');
    const choice = chunk.choices.find((c) => isPlainObject(c) && (c.index === undefined || c.index === 0));
    if (!isPlainObject(choice)) return; // usage-only chunk
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) this.finish = choice.finish_reason;
    const delta = choice.delta;
    if (delta === undefined || delta === null) return;
    if (!isPlainObject(delta)) throw new ProviderAnswerError('choices[0].delta is not an object');
    if (typeof delta.content === 'string') this.content += delta.content;
    for (const field of ['reasoning_content', 'reasoning'] as const) {
      const piece = delta[field];
      if (typeof piece === 'string') this.texts[field] = (this.texts[field] ?? '') + piece;
    }
    if (Array.isArray(delta.reasoning_details)) {
      this.details ??= [];
      for (const piece of delta.reasoning_details) {
        if (!isPlainObject(piece) || typeof piece.type !== 'string')
          throw new ProviderAnswerError('a reasoning_details piece has no type');
        mergeReasoningDetail(this.details, piece);
      }
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) this.acceptToolCall(piece);
    }
    this.extra?.readDelta(delta);
  }

  private acceptToolCall(piece: unknown): void {
    if (!isPlainObject(piece)) throw new ProviderAnswerError('a tool_calls piece is not an object');
    const index =
      typeof piece.index === 'number' ? piece.index : this.calls.size === 0 ? 0 : Math.max(...this.calls.keys());
    const fn = isPlainObject(piece.function) ? piece.function : {};
    const call = this.calls.get(index) ?? { name: '', arguments: '' };
    if (typeof piece.id === 'string' && piece.id !== '') call.id = piece.id;
    if (typeof fn.name === 'string') call.name += fn.name;
    if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
    this.calls.set(index, call);
  }

  /** Where the call streamed under wire `index` sits in the answer's tool_calls: wire indexes may be sparse. */
  callPosition(index: number): number | undefined {
    const at = [...this.calls.keys()].sort((a, b) => a - b).indexOf(index);
    return at === -1 ? undefined : at;
  }

  answer(whole: boolean): ParsedAnswer {
    const carriers: Carriers = {};
    if (this.texts.reasoning_content !== undefined) carriers.reasoning_content = this.texts.reasoning_content;
    if (this.texts.reasoning !== undefined) carriers.reasoning = this.texts.reasoning;
    if (this.details !== undefined) {
      const kept = whole ? this.details : this.details.filter((d) => !SIGNED_OR_OPAQUE(d));
      if (whole || kept.length > 0) carriers.reasoning_details = kept;
    }
    const toolCalls: ToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        id: c.id ?? `call_${index}`,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      }));
    const message: Message = {
      role: 'assistant',
      // A stream cannot tell "" from null; an answer with no text is null, as most bodies say.
      content: this.content === '' ? null : this.content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      ...carriers,
      ...producedByUpstream(this.model, this.provider, carriers.reasoning_details),
    };
    return { message, carriers, finishReason: mapOpenAIChatFinishReason(this.finish ?? undefined) };
  }
}

/** Entry point for a live stream: feed it SSE text in any chunking, then `end()`. */
export function openAIChatStreamCarriers(): StreamCarriers {
  return new StreamCarriers(new OpenAIChatAccumulator());
}

/** Entry point for a stored stream (fixture events). */
export function readOpenAIChatStream(events: readonly SseEvent[]): ParsedAnswer {
  return readStreamEvents(new OpenAIChatAccumulator(), events);
}
