import { encodeSseEvent, eventDelays, pause, type EventEncoder } from '../../../provider/answers/answer-stream.js';
import {
  AWS_EVENT_STREAM_TYPE,
  bedrockFrame,
} from '../../../provider/families/bedrock-converse/event-stream-frames.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { formatSseEvent, SseReader } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { familyDescriptor } from '../../../shared/wire/families.js';

/** How a family's stream goes over HTTP: its content type and how each stored event is framed. */
export interface StreamWire {
  contentType: string;
  encode: EventEncoder;
  /**
   * The whole stream as one buffer, as `encode` frames it event after event: one text and one copy for SSE, where
   * encoding each event to its own bytes and joining them cost a fresh streamed answer a copy and an allocation per event.
   */
  encodeAll: (events: readonly SseEvent[]) => Buffer;
  /** True where the wire is not the SSE the fixtures and the in-process mocks speak (decision 0040). */
  binary: boolean;
}

const SSE: StreamWire = {
  contentType: 'text/event-stream',
  encode: encodeSseEvent,
  encodeAll: (events) => {
    let text = '';
    for (const event of events) text += formatSseEvent(event);
    return Buffer.from(text);
  },
  binary: false,
};
const AWS: StreamWire = {
  contentType: AWS_EVENT_STREAM_TYPE,
  encode: bedrockFrame,
  encodeAll: (events) => Buffer.concat(events.map(bedrockFrame)),
  binary: true,
};

/** The family descriptor says how a stream is framed: `aws-event-stream` is binary frames on the wire. */
export const streamWire = (spec: ProviderSpec): StreamWire =>
  familyDescriptor(spec.family).stream === 'aws-event-stream' ? AWS : SSE;

/**
 * The whole stream's bytes per answer, made once: a kept or cached follow answer comes back as the same events array,
 * so a repeated request costs a lookup. The per-event chunks a paced stream writes are made where they are written.
 */
const encoded = new WeakMap<StreamWire, WeakMap<readonly SseEvent[], Buffer>>();

/** The whole stream as one buffer, encoded once per answer: what serve sends at pace 0, in one write with its end. */
export function streamBytes(events: readonly SseEvent[], wire: StreamWire): Buffer {
  let byEvents = encoded.get(wire);
  if (!byEvents) encoded.set(wire, (byEvents = new WeakMap()));
  let whole = byEvents.get(events);
  if (!whole) byEvents.set(events, (whole = wire.encodeAll(events)));
  return whole;
}

/**
 * Writes the events to `out`, paced by their recorded timing (`pace` > 0), one write per event. At
 * pace 0 the whole stream goes in one write: nothing waits between events, and per-event writes
 * only cost the chunked framing and a syscall each (issue 22's bench: serve streamed at 0.02x of a
 * bare server). A client still parses it event by event, as it would a fast provider's.
 */
export async function writeEvents(
  out: { write(chunk: Uint8Array): unknown },
  events: readonly SseEvent[],
  pace: number,
  wire: StreamWire,
): Promise<void> {
  if (pace <= 0) {
    out.write(streamBytes(events, wire));
    return;
  }
  const delays = eventDelays(events, pace);
  for (let i = 0; i < events.length; i++) {
    await pause(delays[i]);
    out.write(wire.encode(events[i]!));
  }
}

/**
 * An SSE byte stream (a scripted fixture answer from the msw handler) re-framed for `wire`, event
 * by event as it arrives, so pacing survives. For SSE the stream is returned as it is.
 */
export function reframe(body: ReadableStream<Uint8Array>, wire: StreamWire): ReadableStream<Uint8Array> {
  if (!wire.binary) return body;
  const decoder = new TextDecoder();
  let queue: Uint8Array[] = [];
  const reader = new SseReader((event) => queue.push(wire.encode(event)));
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        reader.feed(decoder.decode(chunk, { stream: true }));
        for (const frame of queue) controller.enqueue(frame);
        queue = [];
      },
    }),
  );
}
