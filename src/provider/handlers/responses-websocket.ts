import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { sseJsonData } from '../../shared/sse/parse-sse.js';
import { storedResponse } from '../answers/stored-responses.js';
import type { Finding } from '../../shared/findings/finding.js';
import type { SseEvent } from '../../shared/sse/sse-event.js';
import { fillRejection } from './fill-rejection.js';

/** The client event that starts a turn in Responses WebSocket mode (the only one the mock takes). */
export const RESPONSE_CREATE = 'response.create';

/** The mock's answer to a turn, as POST /responses answers it (the members of answer-http-request's HttpAnswer read here). */
export interface TurnAnswer {
  spec: ProviderSpec;
  status: number;
  findings: Finding[];
  tool?: string;
  streamed: boolean;
  content:
    | { kind: 'events'; events: readonly SseEvent[] }
    | { kind: 'json'; bytes: Uint8Array | string }
    | { kind: 'body'; body: ReadableStream<Uint8Array> | null };
}

/** How a turn is answered: the create body (streamed) and which turn of the connection it is. */
export type AnswerTurn = (body: Record<string, unknown>, call: number) => Promise<TurnAnswer | undefined>;

/** What one client message gets back: the JSON messages to send in order, and the HTTP answer it went through. */
export interface WebSocketTurn {
  messages: unknown[];
  /** The request body the turn was judged as (the message without its `type`, streamed). */
  body?: Record<string, unknown>;
  answer?: TurnAnswer;
}

/** The connection-local state the API keeps: its most recent response, and the calls that response made. */
interface Previous {
  id: string;
  callIds: ReadonlySet<string>;
}

/** A WebSocket error envelope: `{type: "error", status, error}` (the Open Responses WebSocketErrorEvent). */
function errorEvent(status: number, body: unknown): Record<string, unknown> {
  const error = isPlainObject(body) && isPlainObject(body.error) ? body.error : body;
  return { type: 'error', status, error };
}

/** The harness's own refusal of a message it cannot take (never a provider's wording). */
function harnessError(message: string): Record<string, unknown> {
  return errorEvent(400, {
    error: { type: 'reasoning_replay_serve_error', code: 'reasoning_replay_serve_error', message },
  });
}

function functionCallIds(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) =>
    isPlainObject(item) && item.type === 'function_call' && typeof item.call_id === 'string' ? [item.call_id] : [],
  );
}

/** The call_ids of the function_call_output items a request sends. */
function outputCallIds(input: unknown): string[] {
  if (!Array.isArray(input)) return [];
  return input.flatMap((item) =>
    isPlainObject(item) && item.type === 'function_call_output' && typeof item.call_id === 'string'
      ? [item.call_id]
      : [],
  );
}

/** The JSON of an answer's events, in order (`[DONE]` and pings are framing, not events). */
async function eventsOf(answer: TurnAnswer): Promise<unknown[]> {
  const content = answer.content;
  if (content.kind === 'events')
    return content.events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as unknown);
  if (content.kind === 'json')
    return [JSON.parse(typeof content.bytes === 'string' ? content.bytes : new TextDecoder().decode(content.bytes))];
  const text = content.body ? await new Response(content.body).text() : '';
  if (answer.streamed) return sseJsonData(text);
  return text === '' ? [] : [JSON.parse(text) as unknown];
}

/**
 * One Responses WebSocket connection on the provider side (the OpenAI WebSocket-mode guide,
 * https://developers.openai.com/api/docs/guides/websocket-mode): each `response.create` message is the create body
 * without `stream` (implicit), answered by the very mock that answers POST /responses, its SSE events sent one JSON
 * message each. The connection keeps its most recent response, so a store:false chain continues by
 * previous_response_id on this connection only; an id neither kept here nor stored is refused
 * previous_response_not_found, and a failed continuation evicts the response it continued (as the Open Responses
 * compliance suite checks). Serve only carries the messages.
 */
export class ResponsesWebSocketConnection {
  private previous: Previous | undefined;
  private turns = 0;

  constructor(
    private readonly spec: ProviderSpec,
    /** The path the client opened, as messages name it. */
    private readonly path: string,
    private readonly answer: AnswerTurn,
  ) {}

  async turn(message: unknown): Promise<WebSocketTurn> {
    if (!isPlainObject(message) || message.type !== RESPONSE_CREATE)
      return {
        messages: [
          harnessError(
            `the ${this.spec.id} mock's WebSocket takes ${RESPONSE_CREATE} messages (a JSON object with "type": "${RESPONSE_CREATE}" and the create body's members)`,
          ),
        ],
      };
    const { type: _type, ...rest } = message;
    const body: Record<string, unknown> = { ...rest, stream: true };
    const refused = this.continuationRefusal(body);
    if (refused) return { messages: [refused], body };

    const answer = await this.answer(body, this.turns++);
    if (!answer) return { messages: [harnessError(`no ${this.spec.id} mock answers POST ${this.path}`)], body };
    const events = await eventsOf(answer);
    if (answer.status >= 400) {
      this.evict(body);
      return { messages: [errorEvent(answer.status, events[0])], body, answer };
    }
    const done = events.find(
      (e) => isPlainObject(e) && typeof e.type === 'string' && /^response\.(completed|incomplete|failed)$/.test(e.type),
    ) as { response?: { id?: unknown; output?: unknown } } | undefined;
    if (typeof done?.response?.id === 'string')
      this.previous = { id: done.response.id, callIds: new Set(functionCallIds(done.response.output)) };
    return { messages: events, body, answer };
  }

  /**
   * A continuation the API refuses before generating: a previous_response_id this connection does not hold and no
   * store has, or a function_call_output whose call the previous response never made (the spec's own wording).
   */
  private continuationRefusal(body: Record<string, unknown>): Record<string, unknown> | undefined {
    const id = body.previous_response_id;
    if (typeof id !== 'string') return undefined;
    const previous = this.previous?.id === id ? this.previous : this.fromStore(id);
    const refuse = (rejectionId: string, params: Record<string, string>) => {
      const rejection = this.spec.rejections[rejectionId];
      if (!rejection) return undefined;
      const filled = fillRejection(rejection, params);
      return errorEvent(filled.status, filled.body);
    };
    if (!previous) {
      this.evict(body);
      return refuse('previous-response-not-found', { id });
    }
    const made = new Set([...previous.callIds, ...functionCallIds(body.input)]);
    const orphan = outputCallIds(body.input).find((callId) => !made.has(callId));
    if (orphan === undefined) return undefined;
    this.evict(body);
    return refuse('function-call-output-without-call', { id: orphan });
  }

  private fromStore(id: string): Previous | undefined {
    const stored = storedResponse(this.spec, id);
    return stored ? { id, callIds: new Set(functionCallIds(stored.response.output)) } : undefined;
  }

  /** A failed turn that continued the connection's response evicts it: the client must start over. */
  private evict(body: Record<string, unknown>): void {
    if (this.previous && body.previous_response_id === this.previous.id) this.previous = undefined;
  }
}
