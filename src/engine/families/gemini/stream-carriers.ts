import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { parseEventJson, readStreamEvents, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { GEMINI_NATIVE_KEY, usableSignature } from './gemini-native.js';
import { partsToAnswer } from './parts-to-answer.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

type Part = Record<string, unknown>;

/**
 * streamGenerateContent?alt=sse: every event is a GenerateContentResponse holding the next parts.
 * Streamed text pieces of one kind (thought or visible) join into the one part the unstreamed
 * body holds. Where the signature comes differs by model, and both are real:
 * - Gemini 3 signs the LAST piece, often one with empty text (ai.google.dev/gemini-api/docs/
 *   thought-signatures), and ends a function-call stream with an unsigned empty text piece that
 *   the body does not have;
 * - Gemini 2.5 signs the FIRST text piece and sends the rest unsigned.
 * So pieces join while at most one of them is signed; a second signature starts a new part, and
 * an unsigned empty text piece (it carries nothing) is dropped. Every other part (function
 * calls, executableCode, codeExecutionResult, toolCall, ...) arrives whole, one piece each.
 */
export class GeminiAccumulator implements StreamAccumulator {
  private readonly parts: Part[] = [];
  private finishReason: unknown;
  readonly notes: string[] = [];

  constructor(private readonly nativeKey: string = GEMINI_NATIVE_KEY) {}

  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  accept(event: SseEvent): void {
    if (event.event !== undefined && event.event !== 'message') {
      this.notes.push(`skipped an event of unknown type ${JSON.stringify(event.event)}`);
      return;
    }
    const chunk = parseEventJson(event);
    if (!isPlainObject(chunk)) throw new ProviderAnswerError('expected a GenerateContentResponse object');
    if (isPlainObject(chunk.error))
      throw new ProviderAnswerError(
        `the provider sent an error in the stream: ${String(chunk.error.message ?? JSON.stringify(chunk.error))}`,
      );
    if (chunk.candidates === undefined) return; // usage or prompt feedback only
    if (!Array.isArray(chunk.candidates)) throw new ProviderAnswerError('candidates is not an array');
    const candidate = chunk.candidates.find((c) => isPlainObject(c) && (c.index === undefined || c.index === 0));
    if (!isPlainObject(candidate)) return;
    const content = candidate.content;
    if (isPlainObject(content) && content.parts !== undefined) {
      if (!Array.isArray(content.parts)) throw new ProviderAnswerError('content.parts is not an array');
      for (const piece of content.parts) {
        if (!isPlainObject(piece)) throw new ProviderAnswerError('a part is not an object');
        this.join(piece);
      }
    }
    if (typeof candidate.finishReason === 'string') this.finishReason = candidate.finishReason;
  }

  private join(piece: Part): void {
    // A text piece: text (or none, as a signature-only thought piece), thought, thoughtSignature.
    const isText = (p: Part) =>
      (typeof p.text === 'string' || p.text === undefined) &&
      Object.keys(p).every((k) => k === 'text' || k === 'thought' || k === 'thoughtSignature');
    const signed = (p: Part) => usableSignature(p.thoughtSignature) !== undefined;
    if (isText(piece) && (piece.text ?? '') === '' && !signed(piece)) return;
    const last = this.parts.at(-1);
    const joins =
      last !== undefined &&
      isText(piece) &&
      isText(last) &&
      (last.thought === true) === (piece.thought === true) &&
      !(signed(last) && signed(piece));
    if (!joins) {
      this.parts.push({ ...piece });
      return;
    }
    if (typeof piece.text === 'string') last.text = (typeof last.text === 'string' ? last.text : '') + piece.text;
    if (signed(piece)) last.thoughtSignature = piece.thoughtSignature;
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
