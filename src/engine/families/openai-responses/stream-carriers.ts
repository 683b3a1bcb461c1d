import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { parseEventJson, readStreamEvents, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { outputToAnswer } from './output-to-answer.js';
import { RESPONSES_NATIVE_KEY } from './responses-native.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

type Item = Record<string, unknown>;

/** Events that carry nothing the answer needs; anything not listed here or handled is an error. */
const PASSIVE = new Set([
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
  'response.refusal.delta',
  'response.refusal.done',
]);

/**
 * Progress events of built-in tools: their item arrives whole in `response.output_item.done`, so
 * these only tell that a search, a code run or an image is under way (the code interpreter's
 * `code.delta`, mcp arguments, partial images included).
 */
const BUILT_IN_TOOL_PROGRESS = [
  'response.web_search_call.',
  'response.file_search_call.',
  'response.code_interpreter_call.',
  'response.code_interpreter_call_code.',
  'response.image_generation_call.',
  'response.mcp_call.',
  'response.mcp_call_arguments.',
  'response.mcp_list_tools.',
  'response.custom_tool_call_input.',
  'response.computer_call.',
  'response.local_shell_call.',
];

function int(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new ProviderAnswerError(`${what} is not a non-negative integer`);
  return value;
}

/**
 * Responses API SSE -> the answer fromOpenAIResponsesResponse gives unstreamed. Items are built
 * from their deltas and then replaced by `response.output_item.done`, whose item is complete:
 * the encrypted_content in `output_item.added` "may be incomplete" (OpenAI's spec), so it is
 * never taken from there.
 */
export class OpenAIResponsesAccumulator implements StreamAccumulator {
  private readonly items = new Map<number, Item>();
  private status: unknown;
  private incompleteReason: unknown;
  /** Well-formed events of types this reader does not know, skipped. */
  readonly notes: string[] = [];

  constructor(private readonly nativeKey: string = RESPONSES_NATIVE_KEY) {}

  get finished(): boolean {
    return this.status !== undefined;
  }

  accept(event: SseEvent): void {
    const data = parseEventJson(event);
    if (!isPlainObject(data) || typeof data.type !== 'string')
      throw new ProviderAnswerError('expected an event object with a type');
    if (event.event !== undefined && event.event !== 'message' && event.event !== data.type) {
      throw new ProviderAnswerError(`event name "${event.event}" differs from its data type "${data.type}"`);
    }
    const type = data.type;
    if (PASSIVE.has(type) || BUILT_IN_TOOL_PROGRESS.some((prefix) => type.startsWith(prefix))) return;
    switch (type) {
      case 'response.output_item.added': {
        const index = int(data.output_index, 'output_index');
        if (!isPlainObject(data.item) || typeof data.item.type !== 'string')
          throw new ProviderAnswerError('output_item.added has no item with a type');
        const { encrypted_content: _partial, ...item } = data.item;
        this.items.set(index, { ...item, ...(item.type === 'reasoning' ? { summary: [] } : {}) });
        return;
      }
      case 'response.reasoning_summary_part.added': {
        const item = this.item(data);
        const summary = item.summary as Array<{ type: string; text: string }>;
        summary[int(data.summary_index, 'summary_index')] ??= { type: 'summary_text', text: '' };
        return;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_summary_text.done': {
        const item = this.item(data);
        const summary = (item.summary ??= []) as Array<{ type: string; text: string }>;
        const at = int(data.summary_index, 'summary_index');
        const part = (summary[at] ??= { type: 'summary_text', text: '' });
        if (type.endsWith('.delta')) part.text += String(data.delta ?? '');
        else if (typeof data.text === 'string') part.text = data.text;
        return;
      }
      case 'response.output_text.delta': {
        const item = this.item(data);
        const content = (item.content ??= []) as Array<{ type: string; text: string }>;
        const at = int(data.content_index ?? 0, 'content_index');
        const part = (content[at] ??= { type: 'output_text', text: '' });
        part.text += String(data.delta ?? '');
        return;
      }
      case 'response.function_call_arguments.delta':
      case 'response.function_call_arguments.done': {
        const item = this.item(data);
        if (type.endsWith('.delta')) item.arguments = String(item.arguments ?? '') + String(data.delta ?? '');
        else if (typeof data.arguments === 'string') item.arguments = data.arguments;
        return;
      }
      case 'response.output_item.done': {
        const index = int(data.output_index, 'output_index');
        if (!isPlainObject(data.item) || typeof data.item.type !== 'string')
          throw new ProviderAnswerError('output_item.done has no item with a type');
        this.items.set(index, { ...data.item });
        return;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = isPlainObject(data.response) ? data.response : {};
        this.status = response.status ?? (type === 'response.completed' ? 'completed' : 'incomplete');
        this.incompleteReason = isPlainObject(response.incomplete_details)
          ? response.incomplete_details.reason
          : undefined;
        return;
      }
      case 'response.failed':
      case 'error': {
        const response = isPlainObject(data.response) ? data.response : data;
        const error = isPlainObject(response.error) ? response.error : response;
        throw new ProviderAnswerError(
          `the provider sent an error in the stream: ${String(error.message ?? JSON.stringify(error))}`,
        );
      }
      default:
        // OpenAI adds event types with new tools; a well-formed one is skipped, and said so.
        this.notes.push(`skipped unknown event type "${type}"`);
    }
  }

  private item(data: Record<string, unknown>): Item {
    const index = int(data.output_index, 'output_index');
    const item = this.items.get(index);
    if (!item) throw new ProviderAnswerError(`${String(data.type)} for output_index ${index}, which was never added`);
    return item;
  }

  answer(whole: boolean): ParsedAnswer {
    const output = [...this.items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    return outputToAnswer(output, this.status, this.incompleteReason, this.nativeKey, whole);
  }
}

export function openAIResponsesStreamCarriers(policy?: RoutePolicy): StreamCarriers {
  return new StreamCarriers(new OpenAIResponsesAccumulator(policy?.native ?? RESPONSES_NATIVE_KEY));
}

export function readOpenAIResponsesStream(events: readonly SseEvent[], policy?: RoutePolicy): ParsedAnswer {
  return readStreamEvents(new OpenAIResponsesAccumulator(policy?.native ?? RESPONSES_NATIVE_KEY), events);
}
