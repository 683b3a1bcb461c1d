import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { parseEventJson, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { ANTHROPIC_NATIVE_KEY } from './anthropic-native.js';
import { assembleAnswer, type AnswerBlock } from './assemble-answer.js';
import { producedBy, textExtra } from './from-response.js';
import { droppedThinkingPaths } from './dropped-thinking.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

interface OpenBlock {
  type: string;
  thinking: string;
  signature: string;
  data: string;
  text: string;
  id: string;
  name: string;
  json: string;
  /** The content_block of its start event, as sent: what an unfamiliar block is replayed from. */
  start: Record<string, unknown>;
  citations: unknown[];
  /** A compaction block's pieces (compaction_delta): its summary and its opaque encrypted_content, null until sent. */
  compaction: { content: string | null; encrypted: string | null };
  /** An unfamiliar delta was skipped: the block is not whole and is not replayed. */
  skipped: boolean;
  closed: boolean;
}

function field(value: Record<string, unknown>, key: string): string {
  const v = value[key];
  return typeof v === 'string' ? v : '';
}

/**
 * Anthropic Messages SSE -> the same ParsedAnswer the unstreamed body gives. A thinking block is
 * whole only once its `content_block_stop` arrived with a signature (the signature comes in its
 * own text-less `signature_delta` just before the stop); anything less is refused rather than
 * stored, since a replayed half-block is exactly what Anthropic answers "Invalid signature" to.
 */
export class AnthropicStreamAccumulator implements StreamAccumulator {
  private readonly blocks = new Map<number, OpenBlock>();
  private stopReason: unknown = null;
  /** message_start's message.model: the model that writes this answer. */
  private model: unknown;
  /** message_start's input_transformations: thinking the provider dropped from the request (dropped-thinking.ts). */
  private dropped: string[] = [];
  private done = false;
  /**
   * Well-formed events or deltas this reader does not know, skipped (Anthropic: "handle unknown event types
   * gracefully").
   */
  readonly notes: string[] = [];

  constructor(private readonly nativeKey: string = ANTHROPIC_NATIVE_KEY) {}

  get finished(): boolean {
    return this.done;
  }

  accept(event: SseEvent): void {
    const payload = parseEventJson(event);
    if (!isPlainObject(payload)) throw new ProviderAnswerError('data is not a JSON object');
    const type = typeof payload.type === 'string' ? payload.type : event.event;
    switch (type) {
      case 'message_start':
        if (isPlainObject(payload.message)) {
          this.model = payload.message.model;
          this.dropped = droppedThinkingPaths(payload.message);
        }
        return;
      case 'ping':
        return;
      case 'content_block_start':
        return this.start(payload);
      case 'content_block_delta':
        return this.delta(payload);
      case 'content_block_stop':
        return this.stop(payload);
      case 'message_delta': {
        const delta = isPlainObject(payload.delta) ? payload.delta : {};
        if (delta.stop_reason !== undefined) this.stopReason = delta.stop_reason;
        return;
      }
      case 'message_stop':
        return this.finish();
      case 'error': {
        const error = isPlainObject(payload.error) ? payload.error : {};
        throw new ProviderAnswerError(
          `the provider sent an error event: ${field(error, 'type') || 'error'}: ${field(error, 'message')}`,
        );
      }
      default:
        // https://platform.claude.com/docs/en/build-with-claude/streaming#other-events: "we may add
        // new event types, and your code should handle unknown event types gracefully".
        if (typeof type !== 'string') throw new ProviderAnswerError('event has no type');
        this.notes.push(`skipped unknown event type ${JSON.stringify(type)}`);
        return;
    }
  }

  private index(payload: Record<string, unknown>): number {
    if (typeof payload.index !== 'number')
      throw new ProviderAnswerError(`${String(payload.type)} has no numeric index`);
    return payload.index;
  }

  private open(payload: Record<string, unknown>): OpenBlock {
    const index = this.index(payload);
    const block = this.blocks.get(index);
    if (!block)
      throw new ProviderAnswerError(`${String(payload.type)} for content block ${index}, which was never started`);
    if (block.closed)
      throw new ProviderAnswerError(`${String(payload.type)} for content block ${index}, which was already stopped`);
    return block;
  }

  private start(payload: Record<string, unknown>): void {
    const index = this.index(payload);
    if (this.blocks.has(index)) throw new ProviderAnswerError(`content block ${index} started twice`);
    if (!isPlainObject(payload.content_block) || typeof payload.content_block.type !== 'string') {
      throw new ProviderAnswerError(`content_block_start ${index} has no content_block with a type`);
    }
    const cb = payload.content_block;
    const type = field(cb, 'type');
    this.blocks.set(index, {
      type,
      thinking: field(cb, 'thinking'),
      signature: field(cb, 'signature'),
      data: field(cb, 'data'),
      text: field(cb, 'text'),
      id: field(cb, 'id'),
      name: field(cb, 'name'),
      json: '',
      start: cb,
      citations: [],
      compaction: {
        content: typeof cb.content === 'string' ? cb.content : null,
        encrypted: typeof cb.encrypted_content === 'string' ? cb.encrypted_content : null,
      },
      skipped: false,
      closed: false,
    });
  }

  private delta(payload: Record<string, unknown>): void {
    const block = this.open(payload);
    const delta = isPlainObject(payload.delta) ? payload.delta : {};
    const index = this.index(payload);
    const expect = (kind: string) => {
      if (block.type !== kind)
        throw new ProviderAnswerError(
          `${String(delta.type)} for content block ${index}, which is a ${block.type || 'untyped'} block, not ${kind}`,
        );
    };
    switch (delta.type) {
      case 'thinking_delta':
        expect('thinking');
        block.thinking += field(delta, 'thinking');
        return;
      case 'signature_delta':
        expect('thinking');
        block.signature += field(delta, 'signature');
        return;
      case 'text_delta':
        expect('text');
        block.text += field(delta, 'text');
        return;
      case 'input_json_delta':
        // tool_use, and the server tools' server_tool_use / mcp_tool_use: every block with an input.
        if (block.type === 'thinking' || block.type === 'redacted_thinking' || block.type === 'text')
          expect('tool_use');
        block.json += field(delta, 'partial_json');
        return;
      case 'citations_delta':
        expect('text');
        if (!isPlainObject(delta.citation))
          throw new ProviderAnswerError(`citations_delta in content block ${index} has no citation object`);
        block.citations.push(delta.citation);
        return;
      case 'compaction_delta': {
        // Server compaction (compact_20260112): the summary and the opaque encrypted_content, joined as sent.
        expect('compaction');
        const joined = (had: string | null, piece: unknown) => (typeof piece === 'string' ? (had ?? '') + piece : had);
        block.compaction.content = joined(block.compaction.content, delta.content);
        block.compaction.encrypted = joined(block.compaction.encrypted, delta.encrypted_content);
        return;
      }
      default:
        if (typeof delta.type !== 'string')
          throw new ProviderAnswerError(`a delta without a type in content block ${index}`);
        this.notes.push(
          `skipped unknown delta type ${JSON.stringify(delta.type)} in content block ${index} (${block.type}); the block is not kept`,
        );
        block.skipped = true;
    }
  }

  private stop(payload: Record<string, unknown>): void {
    const block = this.open(payload);
    const index = this.index(payload);
    if (block.type === 'thinking' && block.signature === '') {
      throw new ProviderAnswerError(
        `thinking block ${index} stopped without a signature; it cannot be replayed and is not kept`,
      );
    }
    if (block.json.trim() !== '') {
      try {
        JSON.parse(block.json);
      } catch {
        throw new ProviderAnswerError(
          `${block.type} block ${index} (${block.name}) stopped with input that is not valid JSON`,
        );
      }
    }
    block.closed = true;
  }

  private finish(): void {
    const open = [...this.blocks.entries()].filter(([, b]) => !b.closed).map(([i]) => i);
    if (open.length > 0)
      throw new ProviderAnswerError(`message_stop while content block(s) ${open.join(', ')} were still open`);
    this.done = true;
  }

  answer(whole: boolean): ParsedAnswer {
    const blocks: AnswerBlock[] = [];
    const skipped: string[] = [];
    for (const [i, b] of [...this.blocks.entries()].sort(([a], [c]) => a - c)) {
      if (b.skipped) {
        skipped.push(`content block ${i} (${b.type}) was skipped: it held a delta this reader does not know`);
        continue;
      }
      switch (b.type) {
        case 'thinking':
          if (whole) blocks.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
          break;
        case 'redacted_thinking':
          if (whole) blocks.push({ type: 'redacted_thinking', data: b.data, surface: 'anthropic-messages' });
          break;
        case 'text': {
          const extra = textExtra(b.start);
          if (b.citations.length > 0) {
            const given = Array.isArray(b.start.citations) ? b.start.citations : [];
            blocks.push({ type: 'text', text: b.text, extra: { ...extra, citations: [...given, ...b.citations] } });
          } else blocks.push({ type: 'text', text: b.text, ...(extra ? { extra } : {}) });
          break;
        }
        case 'tool_use':
          // A tool call is only usable with its whole input; a cut one is dropped, not guessed.
          if (b.closed)
            blocks.push({
              type: 'tool_use',
              id: b.id,
              name: b.name,
              input: b.json.trim() === '' ? {} : JSON.parse(b.json),
            });
          break;
        case 'compaction':
          // A compaction block stands for everything before it on the provider's side: kept only whole.
          if (whole && b.closed)
            blocks.push({
              type: 'block',
              block: { ...b.start, content: b.compaction.content, encrypted_content: b.compaction.encrypted },
            });
          break;
        default:
          // An unfamiliar block (server tool call or result): its start as sent, its streamed
          // input set in. Server results carry encrypted_content, so a broken stream keeps none.
          if (whole && b.closed)
            blocks.push({
              type: 'block',
              block: b.json.trim() === '' ? { ...b.start } : { ...b.start, input: JSON.parse(b.json) },
            });
          break;
      }
    }
    const answer = assembleAnswer(
      blocks,
      whole ? mapAnthropicFinishReason(this.stopReason) : null,
      this.nativeKey,
      producedBy(this.model),
    );
    if (skipped.length > 0) answer.notes = [...(answer.notes ?? []), ...skipped];
    if (this.dropped.length > 0) answer.droppedThinking = this.dropped;
    return answer;
  }
}

export function anthropicStreamCarriers(policy?: RoutePolicy): StreamCarriers {
  return new StreamCarriers(new AnthropicStreamAccumulator(policy?.native ?? ANTHROPIC_NATIVE_KEY));
}
