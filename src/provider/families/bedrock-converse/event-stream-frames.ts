import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { SseEvent } from '../../../shared/sse/sse-event.js';

/** The content type of ConverseStream answers. */
export const AWS_EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/**
 * One stored ConverseStream event (decision 0011: `event` is the frame's `:event-type`, `data` its
 * JSON payload) as the binary frame AWS sends, encoded by AWS's own codec (prelude and message
 * CRCs). An event named like `throttlingException` becomes an exception frame, as Bedrock ends a
 * stream that fails midway. Decision 0040: these are the bytes on the wire.
 */
export function bedrockFrame(event: SseEvent): Uint8Array {
  const exception = /Exception$/.test(event.event ?? '');
  const type = event.event ?? 'message';
  return codec.encode({
    headers: {
      [exception ? ':exception-type' : ':event-type']: { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: exception ? 'exception' : 'event' },
    },
    body: fromUtf8(event.data),
  });
}
