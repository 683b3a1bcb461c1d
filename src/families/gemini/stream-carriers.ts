import type { RoutePolicy } from '../../routes/route-table.js';
import type { SseEvent } from '../../sse/sse-event.js';
import { isPlainObject } from '../../util/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { parseEventJson, readStreamEvents, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { GEMINI_NATIVE_KEY, usableSignature } from './gemini-native.js';
import { partsToAnswer } from './parts-to-answer.js';

type Part = Record<string, unknown>;

/**
 * streamGenerateContent?alt=sse: every event is a GenerateContentResponse holding the next parts.
 * Streamed text pieces of one kind (thought or visible) join into one part until a signature
 * closes it: the signature of a text part arrives on its last piece, possibly a piece with empty
 * text (ai.google.dev/gemini-api/docs/thought-signatures), or on a separate part. Function calls
 * arrive whole, one part each. The joined parts are what the unstreamed body holds.
 */
export class GeminiAccumulator implements StreamAccumulator {
  private readonly parts: Part[] = [];
  private finishReason: unknown;

  constructor(private readonly nativeKey: string = GEMINI_NATIVE_KEY) {}

  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  accept(event: SseEvent): void {
    if (event.event !== undefined && event.event !== 'message') throw new Error(`unknown event type "${event.event}"`);
    const chunk = parseEventJson(event);
    if (!isPlainObject(chunk)) throw new Error('expected a GenerateContentResponse object');
    if (isPlainObject(chunk.error)) throw new Error(`the provider sent an error in the stream: ${String(chunk.error.message ?? JSON.stringify(chunk.error))}`);
    if (chunk.candidates === undefined) return; // usage or prompt feedback only
    if (!Array.isArray(chunk.candidates)) throw new Error('candidates is not an array');
    const candidate = chunk.candidates.find((c) => isPlainObject(c) && (c.index === undefined || c.index === 0));
    if (!isPlainObject(candidate)) return;
    const content = candidate.content;
    if (isPlainObject(content) && content.parts !== undefined) {
      if (!Array.isArray(content.parts)) throw new Error('content.parts is not an array');
      for (const piece of content.parts) {
        if (!isPlainObject(piece)) throw new Error('a part is not an object');
        this.join(piece);
      }
    }
    if (typeof candidate.finishReason === 'string') this.finishReason = candidate.finishReason;
  }

  private join(piece: Part): void {
    const last = this.parts.at(-1);
    const isText = (p: Part) => p.functionCall === undefined && (typeof p.text === 'string' || p.text === undefined);
    const joins =
      last !== undefined &&
      isText(piece) &&
      isText(last) &&
      (last.thought === true) === (piece.thought === true) &&
      usableSignature(last.thoughtSignature) === undefined;
    if (!joins) {
      this.parts.push({ ...piece });
      return;
    }
    if (typeof piece.text === 'string') last.text = (typeof last.text === 'string' ? last.text : '') + piece.text;
    if (piece.thoughtSignature !== undefined) last.thoughtSignature = piece.thoughtSignature;
  }

  answer(whole: boolean): ParsedAnswer {
    return partsToAnswer(this.parts, this.finishReason, this.nativeKey, whole);
  }
}

export function geminiStreamCarriers(policy?: RoutePolicy): StreamCarriers {
  return new StreamCarriers(new GeminiAccumulator(policy?.native ?? GEMINI_NATIVE_KEY));
}

export function readGeminiStream(events: readonly SseEvent[], policy?: RoutePolicy): ParsedAnswer {
  return readStreamEvents(new GeminiAccumulator(policy?.native ?? GEMINI_NATIVE_KEY), events);
}
