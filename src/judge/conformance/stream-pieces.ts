import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { formatSse, parseSse } from '../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import type { FamilyId } from '../../shared/wire/families.js';

/**
 * The judge's own reading of each family's stream rules for opaque reasoning (signatures,
 * encrypted and redacted blobs), written from the providers' docs and the seed, not from the
 * engine's accumulators:
 * - chat (OpenRouter-style `reasoning_details` pieces): pieces with the same `index` are one item
 *   and their `data` is joined ("the complete reasoning sequence is built by concatenating all
 *   chunks in order", openrouter.ai/docs/use-cases/reasoning-tokens); a `signature` piece stands
 *   as sent (the latest one);
 * - Copilot: the chat rules, and `reasoning_opaque` / a tool call's `thought_signature` are
 *   replaced: only the latest is valid to replay (a new opaque arrives before each tool call);
 * - Anthropic Messages: `signature_delta` pieces of a block are joined; a redacted block's `data`
 *   comes whole in its `content_block_start`;
 * - Bedrock ConverseStream: `reasoningContent.signature` and `redactedContent` pieces of a content
 *   block are joined;
 * - Gemini: each part's `thoughtSignature` is whole;
 * - Responses: `encrypted_content` is whole only in `response.output_item.done` (the added
 *   item's "may be incomplete").
 *
 * `cut` re-sends every joinable blob in many pieces, as a provider may (nothing in the
 * protocols promises a blob arrives in one piece); `expected` gives the blobs the engine must hold
 * after reading the stream, joined or replaced as the family says.
 */

const PIECES = 5;

function split(value: string): string[] {
  if (value.length < PIECES * 2) return [value];
  const size = Math.ceil(value.length / PIECES);
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

const parse = (event: SseEvent): unknown => {
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
};

const withData = (event: SseEvent, payload: unknown): SseEvent => ({ ...event, data: JSON.stringify(payload) });

function chatDelta(payload: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(payload) || !Array.isArray(payload.choices)) return undefined;
  const choice = payload.choices.find((c) => isPlainObject(c) && (c.index === undefined || c.index === 0));
  return isPlainObject(choice) && isPlainObject(choice.delta) ? choice.delta : undefined;
}

function withChatDelta(payload: unknown, delta: Record<string, unknown>): unknown {
  const p = payload as { choices: Array<Record<string, unknown>> };
  return {
    ...p,
    choices: p.choices.map((c) => (c.index === undefined || c.index === 0 ? { ...c, delta } : c)),
  };
}

interface FamilyStreamRules {
  /** The stream with every joinable blob sent in several pieces. */
  cut(events: SseEvent[]): SseEvent[];
  /** The opaque strings a reader must keep, joined or replaced as the family says. */
  expected(events: SseEvent[]): string[];
}

/** Joins pieces into one string per key, in arrival order. */
class Joined {
  private readonly parts = new Map<string, string>();
  add(key: string, piece: string): void {
    this.parts.set(key, (this.parts.get(key) ?? '') + piece);
  }
  values(): string[] {
    return [...this.parts.values()].filter((v) => v !== '');
  }
}

/** Keeps the latest string per key. */
class Latest {
  private readonly last = new Map<string, string>();
  set(key: string, value: string): void {
    if (value !== '') this.last.set(key, value);
  }
  values(): string[] {
    return [...this.last.values()];
  }
}

function chatRules(copilot: boolean): FamilyStreamRules {
  return {
    cut: (events) =>
      events.flatMap((event) => {
        const payload = parse(event);
        const delta = chatDelta(payload);
        const details = delta?.reasoning_details;
        if (!delta || !Array.isArray(details) || details.length !== 1) return [event];
        const detail = details[0];
        if (!isPlainObject(detail) || typeof detail.data !== 'string') return [event];
        const pieces = split(detail.data);
        // Every piece keeps the item's type, index and format; other keys ride on the first one.
        const { type, index, format } = detail;
        return pieces.map((data, k) =>
          withData(
            event,
            withChatDelta(payload, {
              ...(k === 0 ? delta : {}),
              reasoning_details: [k === 0 ? { ...detail, data } : { type, index, format, data }],
            }),
          ),
        );
      }),
    expected: (events) => {
      const data = new Joined();
      const signatures = new Latest();
      const replaced = new Latest();
      for (const event of events) {
        const delta = chatDelta(parse(event));
        if (!delta) continue;
        const details = Array.isArray(delta.reasoning_details) ? delta.reasoning_details : [];
        details.forEach((d, position) => {
          if (!isPlainObject(d)) return;
          const key = typeof d.index === 'number' ? `i${d.index}` : `p${position}`;
          if (typeof d.data === 'string') data.add(key, d.data);
          if (typeof d.signature === 'string') signatures.set(key, d.signature);
        });
        if (!copilot) continue;
        if (typeof delta.reasoning_opaque === 'string') replaced.set('opaque', delta.reasoning_opaque);
        for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
          const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : {};
          if (typeof fn.thought_signature === 'string') replaced.set('thought_signature', fn.thought_signature);
        }
      }
      return [...data.values(), ...signatures.values(), ...replaced.values()];
    },
  };
}

const anthropicRules: FamilyStreamRules = {
  cut: (events) =>
    events.flatMap((event) => {
      const payload = parse(event);
      if (!isPlainObject(payload) || payload.type !== 'content_block_delta' || !isPlainObject(payload.delta))
        return [event];
      const delta = payload.delta;
      if (delta.type !== 'signature_delta' || typeof delta.signature !== 'string') return [event];
      return split(delta.signature).map((signature) => withData(event, { ...payload, delta: { ...delta, signature } }));
    }),
  expected: (events) => {
    const joined = new Joined();
    for (const event of events) {
      const payload = parse(event);
      if (!isPlainObject(payload)) continue;
      const key = String(payload.index);
      if (payload.type === 'content_block_start' && isPlainObject(payload.content_block)) {
        const block = payload.content_block;
        if (block.type === 'redacted_thinking' && typeof block.data === 'string') joined.add(`r${key}`, block.data);
        if (block.type === 'thinking' && typeof block.signature === 'string') joined.add(`s${key}`, block.signature);
      } else if (payload.type === 'content_block_delta' && isPlainObject(payload.delta)) {
        if (payload.delta.type === 'signature_delta' && typeof payload.delta.signature === 'string')
          joined.add(`s${key}`, payload.delta.signature);
      }
    }
    return joined.values();
  },
};

function bedrockReasoning(payload: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(payload) || !isPlainObject(payload.delta)) return undefined;
  return isPlainObject(payload.delta.reasoningContent) ? payload.delta.reasoningContent : undefined;
}

const bedrockRules: FamilyStreamRules = {
  cut: (events) =>
    events.flatMap((event) => {
      if (event.event !== 'contentBlockDelta') return [event];
      const payload = parse(event) as Record<string, unknown>;
      const reasoning = bedrockReasoning(payload);
      const key =
        reasoning &&
        (typeof reasoning.signature === 'string'
          ? 'signature'
          : typeof reasoning.redactedContent === 'string'
            ? 'redactedContent'
            : undefined);
      if (!reasoning || !key) return [event];
      return split(reasoning[key] as string).map((piece) =>
        withData(event, { ...payload, delta: { reasoningContent: { [key]: piece } } }),
      );
    }),
  expected: (events) => {
    const joined = new Joined();
    for (const event of events) {
      if (event.event !== 'contentBlockDelta') continue;
      const payload = parse(event) as Record<string, unknown>;
      const reasoning = bedrockReasoning(payload);
      if (!reasoning) continue;
      const key = String(payload.contentBlockIndex);
      if (typeof reasoning.signature === 'string') joined.add(`s${key}`, reasoning.signature);
      if (typeof reasoning.redactedContent === 'string') joined.add(`r${key}`, reasoning.redactedContent);
    }
    return joined.values();
  },
};

const geminiRules: FamilyStreamRules = {
  cut: (events) => events,
  expected: (events) => {
    const out: string[] = [];
    for (const event of events) {
      const payload = parse(event);
      const candidates = isPlainObject(payload) && Array.isArray(payload.candidates) ? payload.candidates : [];
      for (const c of candidates) {
        const parts =
          isPlainObject(c) && isPlainObject(c.content) && Array.isArray(c.content.parts) ? c.content.parts : [];
        for (const p of parts)
          if (isPlainObject(p) && typeof p.thoughtSignature === 'string' && p.thoughtSignature !== '')
            out.push(p.thoughtSignature);
      }
    }
    return out;
  },
};

const responsesRules: FamilyStreamRules = {
  cut: (events) => events,
  expected: (events) => {
    const out: string[] = [];
    for (const event of events) {
      const payload = parse(event);
      if (!isPlainObject(payload) || payload.type !== 'response.output_item.done' || !isPlainObject(payload.item))
        continue;
      if (typeof payload.item.encrypted_content === 'string' && payload.item.encrypted_content !== '')
        out.push(payload.item.encrypted_content);
    }
    return out;
  },
};

const RULES: Record<FamilyId, FamilyStreamRules> = {
  'openai-chat': chatRules(false),
  copilot: chatRules(true),
  'anthropic-messages': anthropicRules,
  'bedrock-converse': bedrockRules,
  gemini: geminiRules,
  'openai-responses': responsesRules,
};

/** The stream text with every joinable opaque blob cut into pieces (unchanged when it has none). */
export function cutStream(family: FamilyId, text: string): string {
  const { events } = parseSse(text);
  const cut = RULES[family].cut(events);
  return cut.length === events.length ? text : formatSse(cut);
}

/** The opaque strings a reader of this stream must keep, by the family's stream rules. */
export function streamOpaqueStrings(family: FamilyId, text: string): string[] {
  return [...new Set(RULES[family].expected(parseSse(text).events))];
}
