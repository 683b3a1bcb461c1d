import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { FamilyId } from '../../shared/wire/families.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/**
 * What one streamed event is to the reasoning of its answer: a piece of reasoning text, the event that carries a
 * signature (or an opaque blob) whole, the stop of the reasoning block, the start of a tool call, or anything else.
 */
export type EventRole = 'thinking' | 'signature' | 'reasoning-end' | 'tool-start' | 'other';

export interface EventAnatomy {
  role: EventRole;
  /** The reasoning text a `thinking` event adds. */
  text?: string;
  /** The signature a `signature` event carries whole. */
  signature?: string;
  /** A value the event carries that is a signature cut short by design (a Responses item's `added` copy). */
  partialSignature?: string;
  /** The event also starts a tool call (Gemini's first functionCall part carries the signature). */
  toolStart?: true;
}

/** A family's reading of its own stream, and how it writes a signature event carrying only part of its signature. */
export interface StreamReader {
  read(events: readonly SseEvent[]): EventAnatomy[];
  /** The event with its signature replaced by `part` (the rest of the event unchanged). */
  withSignature(event: SseEvent, part: string): SseEvent;
  /** The event without what marks the answer finished (Gemini's finishReason), when it has one. */
  unfinished?(event: SseEvent): SseEvent;
}

const parse = (event: SseEvent): Record<string, unknown> => {
  try {
    const value = JSON.parse(event.data) as unknown;
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
};
const obj = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Replaces the string at `path` in the event's JSON with `part`. */
function rewrite(event: SseEvent, path: readonly (string | number)[], part: string): SseEvent {
  const payload = JSON.parse(event.data) as Record<string, unknown>;
  let at: Record<string, unknown> = payload;
  for (const key of path.slice(0, -1)) at = (at as Record<string | number, unknown>)[key] as Record<string, unknown>;
  (at as Record<string | number, unknown>)[path.at(-1)!] = part;
  return { ...event, data: JSON.stringify(payload) };
}

/** Messages: thinking_delta, signature_delta and the thinking block's content_block_stop; tool_use starts. */
const messages: StreamReader = {
  read(events) {
    const thinking = new Set<number>();
    return events.map((event) => {
      const p = parse(event);
      const index = typeof p.index === 'number' ? p.index : -1;
      if (p.type === 'content_block_start') {
        const block = obj(p.content_block);
        if (block.type === 'thinking') thinking.add(index);
        if (block.type === 'tool_use') return { role: 'tool-start' };
      }
      if (p.type === 'content_block_delta' && thinking.has(index)) {
        const delta = obj(p.delta);
        if (delta.type === 'thinking_delta') return { role: 'thinking', text: str(delta.thinking) ?? '' };
        if (delta.type === 'signature_delta') return { role: 'signature', signature: str(delta.signature) ?? '' };
      }
      if (p.type === 'content_block_stop' && thinking.has(index)) return { role: 'reasoning-end' };
      return { role: 'other' };
    });
  },
  withSignature: (event, part) => rewrite(event, ['delta', 'signature'], part),
};

/** ConverseStream: reasoningContent text and signature deltas, the block's contentBlockStop; toolUse starts. */
const converse: StreamReader = {
  read(events) {
    const reasoning = new Set<number>();
    return events.map((event) => {
      const p = parse(event);
      const index = typeof p.contentBlockIndex === 'number' ? p.contentBlockIndex : -1;
      if (event.event === 'contentBlockDelta') {
        const rc = obj(obj(p.delta).reasoningContent);
        if (typeof rc.text === 'string') {
          reasoning.add(index);
          return { role: 'thinking', text: rc.text };
        }
        if (typeof rc.signature === 'string') {
          reasoning.add(index);
          return { role: 'signature', signature: rc.signature };
        }
      }
      if (event.event === 'contentBlockStart' && isPlainObject(obj(p.start).toolUse)) return { role: 'tool-start' };
      if (event.event === 'contentBlockStop' && reasoning.has(index)) return { role: 'reasoning-end' };
      return { role: 'other' };
    });
  },
  withSignature: (event, part) => rewrite(event, ['delta', 'reasoningContent', 'signature'], part),
};

const geminiPart = (p: Record<string, unknown>): Record<string, unknown> => {
  const candidate = obj((p.candidates as unknown[] | undefined)?.[0]);
  return obj((obj(candidate.content).parts as unknown[] | undefined)?.[0]);
};

/** Gemini: thought parts, the part carrying a thoughtSignature (whole, never split), functionCall parts. */
const gemini: StreamReader = {
  read(events) {
    return events.map((event) => {
      const part = geminiPart(parse(event));
      if (part.thought === true) return { role: 'thinking', text: str(part.text) ?? '' };
      if (typeof part.thoughtSignature === 'string') {
        // The first function call carries the signature: it is both.
        return {
          role: 'signature',
          signature: part.thoughtSignature,
          ...(isPlainObject(part.functionCall) ? { toolStart: true as const } : {}),
        };
      }
      if (isPlainObject(part.functionCall)) return { role: 'tool-start' };
      return { role: 'other' };
    });
  },
  withSignature: (event, part) => rewrite(event, ['candidates', 0, 'content', 'parts', 0, 'thoughtSignature'], part),
  unfinished(event) {
    const payload = JSON.parse(event.data) as Record<string, unknown>;
    const candidate = obj((payload.candidates as unknown[] | undefined)?.[0]);
    delete candidate.finishReason;
    return { ...event, data: JSON.stringify(payload) };
  },
};

/**
 * Responses: a reasoning item's `added` event holds a copy of encrypted_content that may be incomplete, its summary
 * deltas are the text, its `output_item.done` holds the whole blob and ends the item; a function_call item starts
 * a tool call.
 */
const responses: StreamReader = {
  read(events) {
    return events.map((event) => {
      const p = parse(event);
      const item = obj(p.item);
      if (p.type === 'response.output_item.added' && item.type === 'reasoning') {
        const partial = str(item.encrypted_content);
        return { role: 'other', ...(partial ? { partialSignature: partial } : {}) };
      }
      if (p.type === 'response.reasoning_summary_text.delta') return { role: 'thinking', text: str(p.delta) ?? '' };
      if (p.type === 'response.output_item.done' && item.type === 'reasoning') {
        const whole = str(item.encrypted_content);
        return whole ? { role: 'signature', signature: whole } : { role: 'reasoning-end' };
      }
      if (p.type === 'response.output_item.added' && item.type === 'function_call') return { role: 'tool-start' };
      return { role: 'other' };
    });
  },
  withSignature: (event, part) => rewrite(event, ['item', 'encrypted_content'], part),
};

const detailsOf = (p: Record<string, unknown>): Record<string, unknown>[] => {
  const choice = obj((p.choices as unknown[] | undefined)?.[0]);
  const details = obj(choice.delta).reasoning_details;
  return Array.isArray(details) ? details.map(obj) : [];
};

/** Chat completions through a gateway: reasoning_details text deltas, the text-less delta with the signature. */
const chat: StreamReader = {
  read(events) {
    return events.map((event) => {
      const p = parse(event);
      const details = detailsOf(p);
      const signed = details.find((d) => typeof d.signature === 'string' && d.signature !== '');
      if (signed) return { role: 'signature', signature: signed.signature as string };
      const text = details.find((d) => d.type === 'reasoning.text' && typeof d.text === 'string');
      if (text) return { role: 'thinking', text: text.text as string };
      const choice = obj((p.choices as unknown[] | undefined)?.[0]);
      if (Array.isArray(obj(choice.delta).tool_calls)) return { role: 'tool-start' };
      return { role: 'other' };
    });
  },
  withSignature(event, part) {
    const payload = JSON.parse(event.data) as Record<string, unknown>;
    for (const d of detailsOf(payload)) if (typeof d.signature === 'string' && d.signature !== '') d.signature = part;
    return { ...event, data: JSON.stringify(payload) };
  },
};

export const STREAM_READERS: Partial<Record<FamilyId, StreamReader>> = {
  'anthropic-messages': messages,
  'bedrock-converse': converse,
  gemini,
  'openai-responses': responses,
  'openai-chat': chat,
};
