import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ParsedAnswer } from '../family.js';
import { OpenAIChatAccumulator, type ChatDeltaReader } from '../openai-chat/stream-carriers.js';
import { readStreamEvents, StreamCarriers, type StreamAccumulator } from '../stream-carriers.js';
import { COPILOT_NATIVE_KEY } from './copilot-native.js';
import { assembleCopilotAnswer } from './from-response.js';

/**
 * Reads Copilot's extra delta fields, by the seed's StreamCarriers rules: reasoning_text fragments
 * are joined; reasoning_opaque and thought_signature keep the LATEST non-empty value (a new
 * opaque arrives before each tool call; only the last is valid to replay).
 */
class CopilotDeltaReader implements ChatDeltaReader {
  text: string | undefined;
  opaque: string | undefined;
  signature: { value: string; callIndex: number } | undefined;

  readDelta(delta: Record<string, unknown>): void {
    if (typeof delta.reasoning_text === 'string') this.text = (this.text ?? '') + delta.reasoning_text;
    if (typeof delta.reasoning_opaque === 'string' && delta.reasoning_opaque !== '')
      this.opaque = delta.reasoning_opaque;
    if (Array.isArray(delta.tool_calls)) {
      for (const piece of delta.tool_calls) {
        const fn = isPlainObject(piece) && isPlainObject(piece.function) ? piece.function : {};
        if (typeof fn.thought_signature === 'string' && fn.thought_signature !== '') {
          this.signature = {
            value: fn.thought_signature,
            callIndex: isPlainObject(piece) && typeof piece.index === 'number' ? piece.index : 0,
          };
        }
      }
    }
  }
}

export class CopilotAccumulator implements StreamAccumulator {
  private readonly reader = new CopilotDeltaReader();
  private readonly chat = new OpenAIChatAccumulator(this.reader);
  constructor(private readonly nativeKey: string = COPILOT_NATIVE_KEY) {}

  get finished(): boolean {
    return this.chat.finished;
  }

  accept(event: SseEvent): void {
    this.chat.accept(event);
  }

  answer(whole: boolean): ParsedAnswer {
    const chat = this.chat.answer(whole);
    const sig = this.reader.signature;
    // The signature names a call by its wire index; the record names it by its place in tool_calls.
    const signatureCall = sig ? this.chat.callPosition(sig.callIndex) : undefined;
    // A broken stream keeps the readable text only: the opaque may be a superseded one.
    const native = whole
      ? {
          ...(this.reader.text !== undefined ? { text: this.reader.text } : {}),
          ...(this.reader.opaque !== undefined ? { opaque: this.reader.opaque } : {}),
          ...(sig && signatureCall !== undefined ? { signature: sig.value, signatureCall } : {}),
        }
      : { ...(this.reader.text !== undefined ? { text: this.reader.text } : {}) };
    return assembleCopilotAnswer(chat, native, this.nativeKey, chat.finishReason);
  }
}

export function copilotStreamCarriers(policy?: RoutePolicy): StreamCarriers {
  return new StreamCarriers(new CopilotAccumulator(policy?.native ?? COPILOT_NATIVE_KEY));
}

export function readCopilotStream(events: readonly SseEvent[], policy?: RoutePolicy): ParsedAnswer {
  return readStreamEvents(new CopilotAccumulator(policy?.native ?? COPILOT_NATIVE_KEY), events);
}
