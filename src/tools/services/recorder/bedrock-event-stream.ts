import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';

/** The content type of Bedrock's ConverseStream (and InvokeModelWithResponseStream) answers. */
export const AWS_EVENT_STREAM = 'application/vnd.amazon.eventstream';

export function isAwsEventStream(contentType: string | null | undefined): boolean {
  return (contentType ?? '').toLowerCase().includes(AWS_EVENT_STREAM);
}

/**
 * The AWS codec (prelude and message CRCs checked, headers typed), not a hand-written reader:
 * a frame with a bad checksum is an error, never a guessed event.
 */
const codec = new EventStreamCodec(toUtf8, fromUtf8);

type Frame = ReturnType<EventStreamCodec['decode']>;

/**
 * One decoded frame as the SSE event this harness stores for Bedrock (see the WIRE NOTE in
 * families/bedrock-converse/stream-carriers.ts): `event` is the frame's `:event-type` (or the
 * `:exception-type` of an exception frame, which the Bedrock reader raises), `data` its JSON
 * payload. An `error` frame (`:error-code` / `:error-message` headers, no body) becomes an event
 * named by its code with the message as JSON.
 */
export function frameToEvent(frame: Frame): SseEvent {
  const header = (name: string) => {
    const h = frame.headers[name];
    return h === undefined ? undefined : String(h.value);
  };
  const kind = header(':message-type') ?? 'event';
  if (kind === 'error') {
    return {
      event: header(':error-code') ?? 'error',
      data: JSON.stringify({ message: header(':error-message') ?? '' }),
    };
  }
  const type = kind === 'exception' ? header(':exception-type') : header(':event-type');
  if (type === undefined)
    throw new ProviderAnswerError(
      `an event-stream frame of type ${kind} names no ${kind === 'exception' ? ':exception-type' : ':event-type'}`,
    );
  return { event: type, data: toUtf8(frame.body) };
}

/**
 * Decodes `application/vnd.amazon.eventstream` bytes fed in any chunking: a frame is decoded once
 * its whole length (the prelude's first four bytes) has arrived. `pending` is true while part of a
 * frame is buffered, i.e. when a body that ends now was cut inside a frame.
 */
export class EventStreamDecoder {
  private buffer = new Uint8Array(0);

  feed(chunk: Uint8Array): SseEvent[] {
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
    const events: SseEvent[] = [];
    while (this.buffer.length >= 4) {
      const total = new DataView(this.buffer.buffer, this.buffer.byteOffset, 4).getUint32(0);
      if (total < 16)
        throw new ProviderAnswerError(`an event-stream frame claims ${total} bytes, less than its own prelude`);
      if (this.buffer.length < total) break;
      events.push(frameToEvent(codec.decode(this.buffer.subarray(0, total))));
      this.buffer = this.buffer.slice(total);
    }
    return events;
  }

  get pending(): boolean {
    return this.buffer.length > 0;
  }
}

/** All events of a whole event-stream body (an imported recording, a test). */
export function decodeEventStream(bytes: Uint8Array): SseEvent[] {
  const decoder = new EventStreamDecoder();
  const events = decoder.feed(bytes);
  if (decoder.pending) throw new ProviderAnswerError('the event stream ends inside a frame');
  return events;
}

/** Frames one Bedrock event the way AWS sends it (for loopback servers and mocks in tests). */
export function encodeBedrockEvent(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** Frames a Bedrock exception (`:message-type: exception`), e.g. throttlingException. */
export function encodeBedrockException(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: exceptionType },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: fromUtf8(JSON.stringify({ message })),
  });
}
