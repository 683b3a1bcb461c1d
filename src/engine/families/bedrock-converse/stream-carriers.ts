import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { assembleAnswer, type AnswerBlock } from '../anthropic-messages/assemble-answer.js';
import type { ParsedAnswer } from '../family.js';
import { parseEventJson, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';
import { bedrockReplayPolicy } from './replay-policy.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

/*
 * WIRE NOTE. ConverseStream does not speak SSE: AWS sends `application/vnd.amazon.eventstream`,
 * binary frames whose `:event-type` header names the event and whose payload is the JSON below.
 * This harness models each frame as one SSE event (`event:` = the event type, `data:` = the
 * payload) so Bedrock fixtures and mocks share the SSE machinery of every other family. The JSON
 * payloads are Bedrock's; the framing is ours. A recorder capturing real Bedrock traffic must
 * decode event-stream frames into this shape (not done here). The SDK's `{contentBlockDelta: {...}}`
 * wrapping is read too, for fixtures written from SDK output.
 */

const EVENTS = new Set([
  'messageStart',
  'contentBlockStart',
  'contentBlockDelta',
  'contentBlockStop',
  'messageStop',
  'metadata',
]);
const EXCEPTIONS = new Set([
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
]);

type Kind = 'text' | 'reasoning' | 'redacted' | 'tool' | 'other';

interface OpenBlock {
  kind?: Kind;
  text: string;
  signature: string;
  data: string;
  toolUseId: string;
  name: string;
  input: string;
  closed: boolean;
}

const newBlock = (): OpenBlock => ({
  text: '',
  signature: '',
  data: '',
  toolUseId: '',
  name: '',
  input: '',
  closed: false,
});

/**
 * ConverseStream events -> the ParsedAnswer of the same answer unstreamed. Reasoning blocks have
 * no start event: a block's kind is fixed by its first delta, and a delta of another kind for the
 * same index is an error (a signature on a text block, say). When the route's policy is `signed`
 * a reasoning block must end with its signature; under other policies unsigned reasoning is whole.
 */
/** "a text", "an empty", "an image": the article a word takes in an error message. */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** How an error names the block a delta landed in: "a text block", "a block of another kind". */
function blockOfKind(kind: string): string {
  return kind === 'other' ? 'a block of another kind' : `${withArticle(kind)} block`;
}

export class BedrockStreamAccumulator implements StreamAccumulator {
  private readonly blocks = new Map<number, OpenBlock>();
  private stopReason: unknown = null;
  private done = false;
  /** Well-formed events and deltas this reader does not model, skipped and named. */
  readonly notes: string[] = [];

  constructor(private readonly requireSignature = false) {}

  get finished(): boolean {
    return this.done;
  }

  accept(event: SseEvent): void {
    const raw = parseEventJson(event);
    if (!isPlainObject(raw)) throw new ProviderAnswerError('data is not a JSON object');
    let type = event.event;
    let payload: Record<string, unknown> = raw;
    const keys = Object.keys(raw);
    if ((type === undefined || type === 'message') && keys.length === 1 && isPlainObject(raw[keys[0]!])) {
      type = keys[0]!;
      payload = raw[type] as Record<string, unknown>;
    }
    if (type !== undefined && EXCEPTIONS.has(type))
      throw new ProviderAnswerError(`the provider sent ${type}: ${String(payload.message ?? '')}`);
    if (type === undefined) throw new ProviderAnswerError('an event with no event type');
    if (!EVENTS.has(type)) {
      this.notes.push(`skipped unknown event type ${JSON.stringify(type)}`);
      return;
    }
    switch (type) {
      case 'messageStart':
      case 'metadata':
        return;
      case 'contentBlockStart':
        return this.start(payload);
      case 'contentBlockDelta':
        return this.delta(payload);
      case 'contentBlockStop':
        return this.stop(payload);
      case 'messageStop':
        return this.finish(payload);
    }
  }

  private index(payload: Record<string, unknown>, type: string): number {
    if (typeof payload.contentBlockIndex !== 'number')
      throw new ProviderAnswerError(`${type} has no numeric contentBlockIndex`);
    return payload.contentBlockIndex;
  }

  private block(index: number, type: string): OpenBlock {
    let block = this.blocks.get(index);
    if (!block) this.blocks.set(index, (block = newBlock()));
    if (block.closed) throw new ProviderAnswerError(`${type} for content block ${index}, which was already stopped`);
    return block;
  }

  private claim(block: OpenBlock, kind: Kind, index: number, what: string): void {
    if (block.kind !== undefined && block.kind !== kind)
      throw new ProviderAnswerError(`${what} for content block ${index}, which is ${blockOfKind(block.kind)}`);
    block.kind = kind;
  }

  private start(payload: Record<string, unknown>): void {
    const index = this.index(payload, 'contentBlockStart');
    if (this.blocks.has(index)) throw new ProviderAnswerError(`content block ${index} started twice`);
    const block = this.block(index, 'contentBlockStart');
    const start = isPlainObject(payload.start) ? payload.start : {};
    if (isPlainObject(start.toolUse)) {
      block.kind = 'tool';
      block.toolUseId = String(start.toolUse.toolUseId ?? '');
      block.name = String(start.toolUse.name ?? '');
    }
  }

  private delta(payload: Record<string, unknown>): void {
    const index = this.index(payload, 'contentBlockDelta');
    const block = this.block(index, 'contentBlockDelta');
    const delta = isPlainObject(payload.delta) ? payload.delta : {};
    if (typeof delta.text === 'string') {
      this.claim(block, 'text', index, 'a text delta');
      block.text += delta.text;
    } else if (isPlainObject(delta.toolUse)) {
      if (block.kind !== 'tool')
        throw new ProviderAnswerError(
          `a toolUse delta for content block ${index}, which was not started as a tool use`,
        );
      block.input += typeof delta.toolUse.input === 'string' ? delta.toolUse.input : '';
    } else if (isPlainObject(delta.reasoningContent)) {
      const r = delta.reasoningContent;
      if (typeof r.text === 'string') {
        this.claim(block, 'reasoning', index, 'a reasoning text delta');
        block.text += r.text;
      } else if (typeof r.signature === 'string') {
        // A signature with no reasoning block to belong to is refused, not parked on something else.
        if (block.kind !== undefined && block.kind !== 'reasoning')
          throw new ProviderAnswerError(
            `a reasoning signature delta for content block ${index}, which is ${blockOfKind(block.kind)}, not reasoning`,
          );
        block.kind = 'reasoning';
        block.signature += r.signature;
      } else if (typeof r.redactedContent === 'string') {
        this.claim(block, 'redacted', index, 'a redactedContent delta');
        block.data += r.redactedContent;
      } else {
        throw new ProviderAnswerError(
          `unknown reasoningContent delta in content block ${index}: ${JSON.stringify(Object.keys(r))}`,
        );
      }
    } else {
      // citation, image, ... deltas: well-formed, with no carrier here; the block is skipped, and said so.
      const named = withArticle(Object.keys(delta).join('/') || 'empty');
      this.claim(block, 'other', index, `${named} delta`);
      this.notes.push(`skipped ${named} delta in content block ${index}: no carrier for it`);
    }
  }

  private stop(payload: Record<string, unknown>): void {
    const index = this.index(payload, 'contentBlockStop');
    const block = this.blocks.get(index);
    if (!block)
      throw new ProviderAnswerError(`contentBlockStop for content block ${index}, which never received anything`);
    if (block.closed) throw new ProviderAnswerError(`content block ${index} stopped twice`);
    if (block.kind === 'reasoning' && this.requireSignature && block.signature === '') {
      throw new ProviderAnswerError(
        `reasoning block ${index} stopped without a signature on a signed-policy route; it cannot be replayed and is not kept`,
      );
    }
    if (block.kind === 'tool' && block.input.trim() !== '') {
      try {
        JSON.parse(block.input);
      } catch {
        throw new ProviderAnswerError(
          `toolUse block ${index} (${block.name}) stopped with input that is not valid JSON`,
        );
      }
    }
    block.closed = true;
  }

  private finish(payload: Record<string, unknown>): void {
    const open = [...this.blocks.entries()].filter(([, b]) => !b.closed).map(([i]) => i);
    if (open.length > 0)
      throw new ProviderAnswerError(`messageStop while content block(s) ${open.join(', ')} were still open`);
    this.stopReason = payload.stopReason;
    this.done = true;
  }

  answer(whole: boolean): ParsedAnswer {
    const blocks: AnswerBlock[] = [];
    for (const [, b] of [...this.blocks.entries()].sort(([a], [c]) => a - c)) {
      if (b.kind === 'text') blocks.push({ type: 'text', text: b.text });
      else if (b.kind === 'tool' && b.closed)
        blocks.push({
          type: 'tool_use',
          id: b.toolUseId,
          name: b.name,
          input: b.input.trim() === '' ? {} : JSON.parse(b.input),
        });
      else if (b.kind === 'reasoning' && whole)
        blocks.push(
          b.signature !== ''
            ? { type: 'thinking', thinking: b.text, signature: b.signature }
            : { type: 'thinking', thinking: b.text },
        );
      else if (b.kind === 'redacted' && whole)
        blocks.push({ type: 'redacted_thinking', data: b.data, surface: 'bedrock-converse' });
    }
    return assembleAnswer(blocks, whole ? mapBedrockStopReason(this.stopReason) : null);
  }
}

export function bedrockStreamCarriers(policy?: RoutePolicy): StreamCarriers {
  return new StreamCarriers(
    new BedrockStreamAccumulator(policy !== undefined && bedrockReplayPolicy(policy) === 'signed'),
  );
}
