import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it } from 'vitest';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { streamFailure } from '../split-stream.js';
import { readStreamEvents } from '../stream-carriers.js';
import type { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { BedrockStreamAccumulator, bedrockStreamCarriers } from './stream-carriers.js';

/**
 * The rendered ConverseStream answers the other tests replay always come in one order: reasoning
 * text, then one signature, one block per index, every block stopped, then messageStop. A real
 * stream can split a signature over several deltas, name exceptions, skip blocks it has no carrier
 * for, or break early; these hand-made streams feed exactly that, and assert what the reader gives
 * back or which event it names. Stryker showed them missing (decision 0029).
 */
const ev = (event: string, payload: Record<string, unknown>): SseEvent => ({ event, data: JSON.stringify(payload) });
const start = (i: number, toolUse?: Record<string, unknown>) =>
  ev('contentBlockStart', { contentBlockIndex: i, ...(toolUse ? { start: { toolUse } } : {}) });
const delta = (i: number, d: Record<string, unknown>) => ev('contentBlockDelta', { contentBlockIndex: i, delta: d });
const text = (i: number, t: string) => delta(i, { text: t });
const thought = (i: number, t: string) => delta(i, { reasoningContent: { text: t } });
const signature = (i: number, s: string) => delta(i, { reasoningContent: { signature: s } });
const redacted = (i: number, d: string) => delta(i, { reasoningContent: { redactedContent: d } });
const input = (i: number, piece: unknown) => delta(i, { toolUse: { input: piece } });
const stop = (i: number) => ev('contentBlockStop', { contentBlockIndex: i });
const messageStart = ev('messageStart', { role: 'assistant' });
const messageStop = (stopReason = 'end_turn') => ev('messageStop', { stopReason });

const signed = { replayPolicy: 'signed', target: { provider: 'bedrock', host: 'h', model: 'm' } } as RoutePolicy;
const unsigned = { replayPolicy: 'unsigned', target: { provider: 'bedrock', host: 'h', model: 'm' } } as RoutePolicy;

const read = (events: SseEvent[], requireSignature = false) =>
  readStreamEvents(new BedrockStreamAccumulator(requireSignature), events);
const failure = (events: SseEvent[] | string, policy?: RoutePolicy): StreamCarrierError<ParsedAnswer> =>
  streamFailure(bedrockStreamCarriers(policy), events);
const fault = (events: SseEvent[], policy?: RoutePolicy) => {
  const error = failure(events, policy);
  return [error.eventIndex, error.problem];
};

describe('Bedrock ConverseStream: reasoningContent deltas', () => {
  it('joins every signature piece, in order (a signature split over several deltas is not its first piece)', () => {
    const answer = read(
      [
        messageStart,
        thought(0, 'Check '),
        thought(0, 'the tides.'),
        signature(0, 'c2lnLXBh'),
        signature(0, 'cnQtdHdv'),
        stop(0),
        text(1, 'High at six.'),
        stop(1),
        messageStop(),
      ],
      true,
    );
    expect(answer.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'Check the tides.', signature: 'c2lnLXBhcnQtdHdv' },
    ]);
    expect(answer.message.reasoning).toBe('Check the tides.');
    expect(answer.message.content).toBe('High at six.');
  });

  it('takes a signature that arrives before the reasoning text, on a signed route', () => {
    const answer = read([messageStart, signature(0, 'sig'), thought(0, 'late text'), stop(0), messageStop()], true);
    expect(answer.message.reasoning_details).toEqual([{ type: 'thinking', thinking: 'late text', signature: 'sig' }]);
  });

  it('joins redactedContent pieces into one redacted block, kept only when the stream is whole', () => {
    const events = [messageStart, redacted(0, 'AAA'), redacted(0, 'BBB'), stop(0), text(1, 'ok'), stop(1)];
    expect(read([...events, messageStop()]).message.reasoning_details).toEqual([
      { type: 'redacted_thinking', data: 'AAABBB', surface: 'bedrock-converse' },
    ]);
    const cut = failure(events);
    expect(cut.problem).toBe('the stream ended before its final event');
    expect(cut.partial.message.content).toBe('ok');
    expect(cut.partial.message.reasoning_details).toBeUndefined();
  });

  it('keeps an unsigned reasoning block without a signature key where no signature is required', () => {
    for (const policy of [undefined, unsigned]) {
      const carriers = bedrockStreamCarriers(policy);
      for (const e of [messageStart, thought(0, 'plain'), stop(0), text(1, 'ok'), stop(1), messageStop()])
        carriers.acceptEvent(e);
      expect(carriers.end().message.reasoning_details).toEqual([{ type: 'thinking', thinking: 'plain' }]);
    }
    expect(fault([messageStart, thought(0, 'plain'), stop(0)], signed)).toEqual([
      2,
      'reasoning block 0 stopped without a signature on a signed-policy route; it cannot be replayed and is not kept',
    ]);
  });

  it('a reader built without arguments does not require a signature', () => {
    const acc = new BedrockStreamAccumulator();
    for (const e of [messageStart, thought(0, 'plain'), stop(0), messageStop()]) acc.accept(e);
    expect(acc.answer(true).message.reasoning_details).toEqual([{ type: 'thinking', thinking: 'plain' }]);
  });

  it('does not ask a text, tool or redacted block for a signature on a signed route', () => {
    const answer = read(
      [
        messageStart,
        redacted(0, 'R'),
        stop(0),
        text(1, 'hi'),
        stop(1),
        start(2, { toolUseId: 't1', name: 'f' }),
        input(2, '{}'),
        stop(2),
        messageStop('tool_use'),
      ],
      true,
    );
    expect(answer.message.content).toBe('hi');
    expect(answer.message.tool_calls).toHaveLength(1);
  });

  it('names a delta of another kind on a reasoning or redacted block', () => {
    expect(fault([messageStart, thought(0, 'a'), redacted(0, 'R')])).toEqual([
      2,
      'a redactedContent delta for content block 0, which is a reasoning block',
    ]);
    expect(fault([messageStart, redacted(0, 'R'), thought(0, 'a')])).toEqual([
      2,
      'a reasoning text delta for content block 0, which is a redacted block',
    ]);
    expect(fault([messageStart, redacted(0, 'R'), signature(0, 's')])).toEqual([
      2,
      'a reasoning signature delta for content block 0, which is a redacted block, not reasoning',
    ]);
    expect(fault([messageStart, thought(0, 'a'), text(0, 'b')])).toEqual([
      2,
      'a text delta for content block 0, which is a reasoning block',
    ]);
  });

  it('refuses a reasoningContent delta it does not know, naming its keys', () => {
    expect(fault([messageStart, delta(0, { reasoningContent: { summary: 'x' } })])).toEqual([
      1,
      'unknown reasoningContent delta in content block 0: ["summary"]',
    ]);
  });
});

describe('Bedrock ConverseStream: blocks by contentBlockIndex', () => {
  it('orders blocks by contentBlockIndex, not by arrival', () => {
    const answer = read(
      [
        messageStart,
        text(1, 'world'),
        thought(0, 'first thought'),
        signature(0, 's0'),
        stop(1),
        stop(0),
        messageStop(),
      ],
      true,
    );
    expect(answer.message.content).toBe('world');
    expect(
      read([messageStart, text(1, 'world'), text(0, 'hello '), stop(0), stop(1), messageStop()]).message.content,
    ).toBe('hello world');
  });

  it('orders indexes as numbers (10 after 2)', () => {
    const answer = read([messageStart, text(2, 'two '), stop(2), text(10, 'ten'), stop(10), messageStop()]);
    expect(answer.message.content).toBe('two ten');
  });

  it('keeps the order of several reasoning blocks by index', () => {
    const answer = read(
      [
        messageStart,
        thought(3, 'second'),
        signature(3, 'b'),
        stop(3),
        thought(1, 'first'),
        signature(1, 'a'),
        stop(1),
        messageStop(),
      ],
      true,
    );
    expect(answer.message.reasoning_details).toEqual([
      { type: 'thinking', thinking: 'first', signature: 'a' },
      { type: 'thinking', thinking: 'second', signature: 'b' },
    ]);
  });

  it('names the event and index of every misuse of contentBlockIndex', () => {
    expect(fault([messageStart, delta(0, { text: 'x' }), ev('contentBlockDelta', { delta: { text: 'y' } })])).toEqual([
      2,
      'contentBlockDelta has no numeric contentBlockIndex',
    ]);
    expect(fault([messageStart, ev('contentBlockStart', { contentBlockIndex: '0', start: {} })])).toEqual([
      1,
      'contentBlockStart has no numeric contentBlockIndex',
    ]);
    expect(fault([messageStart, text(0, 'x'), ev('contentBlockStop', {})])).toEqual([
      2,
      'contentBlockStop has no numeric contentBlockIndex',
    ]);
    expect(fault([messageStart, text(0, 'x'), stop(0), text(0, 'y')])).toEqual([
      3,
      'contentBlockDelta for content block 0, which was already stopped',
    ]);
    expect(fault([messageStart, text(0, 'x'), stop(0), stop(0)])).toEqual([3, 'content block 0 stopped twice']);
    expect(fault([messageStart, stop(4)])).toEqual([
      1,
      'contentBlockStop for content block 4, which never received anything',
    ]);
    expect(fault([messageStart, start(0), start(0)])).toEqual([2, 'content block 0 started twice']);
    expect(fault([messageStart, text(0, 'x'), start(0)])).toEqual([2, 'content block 0 started twice']);
  });

  it('refuses messageStop while blocks are open, naming them all', () => {
    expect(fault([messageStart, text(0, 'a'), thought(1, 'b'), text(2, 'c'), stop(1), messageStop()])).toEqual([
      5,
      'messageStop while content block(s) 0, 2 were still open',
    ]);
  });
});

describe('Bedrock ConverseStream: toolUse input pieces', () => {
  const tool = { toolUseId: 'tooluse_1', name: 'lookup' };

  it('joins the input pieces into the call arguments', () => {
    const answer = read([
      messageStart,
      start(0, tool),
      input(0, '{"q":'),
      input(0, ' "tides"}'),
      stop(0),
      messageStop('tool_use'),
    ]);
    expect(answer.message.tool_calls).toEqual([
      { id: 'tooluse_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"tides"}' } },
    ]);
    expect(answer.finishReason).toBe('tool-calls');
  });

  it('reads a tool use with no input, or only whitespace, as {}, and ignores a piece that is not a string', () => {
    for (const pieces of [[], ['  '], [{ q: 1 }], [undefined]]) {
      const answer = read([
        messageStart,
        start(0, tool),
        ...pieces.map((p) => input(0, p)),
        stop(0),
        messageStop('tool_use'),
      ]);
      expect(answer.message.tool_calls?.[0]?.function.arguments).toBe('{}');
    }
  });

  it('reads a tool use start without id or name as empty strings, never invented ones', () => {
    const answer = read([messageStart, start(0, {}), stop(0), messageStop('tool_use')]);
    expect(answer.message.tool_calls).toEqual([{ id: '', type: 'function', function: { name: '', arguments: '{}' } }]);
  });

  it('a contentBlockStart with no toolUse does not make a tool block', () => {
    expect(read([messageStart, start(0), text(0, 'hi'), stop(0), messageStop()]).message).toMatchObject({
      content: 'hi',
    });
    expect(
      read([
        messageStart,
        ev('contentBlockStart', { contentBlockIndex: 0, start: 'x' }),
        text(0, 'hi'),
        stop(0),
        messageStop(),
      ]).message.content,
    ).toBe('hi');
    expect(fault([messageStart, start(0), input(0, '{}')])).toEqual([
      2,
      'a toolUse delta for content block 0, which was not started as a tool use',
    ]);
  });

  it('names a tool whose input is not JSON when its block stops', () => {
    expect(fault([messageStart, start(0, tool), input(0, '{"q":'), stop(0)])).toEqual([
      3,
      'toolUse block 0 (lookup) stopped with input that is not valid JSON',
    ]);
  });

  it('a stream cut inside a tool use keeps the text before it and no half-built call', () => {
    const error = failure([messageStart, text(0, 'One moment.'), stop(0), start(1, tool), input(1, '{"q":')]);
    expect([error.eventIndex, error.problem]).toEqual([5, 'the stream ended before its final event']);
    expect(error.partial.message.content).toBe('One moment.');
    expect(error.partial.message.tool_calls).toBeUndefined();
    expect(error.partial.finishReason).toBeNull();
  });

  it('a stream cut after a whole tool use keeps that call, but no reasoning', () => {
    const error = failure(
      [messageStart, thought(0, 'why'), signature(0, 's'), stop(0), start(1, tool), input(1, '{}'), stop(1)],
      signed,
    );
    expect(error.partial.message.tool_calls).toHaveLength(1);
    expect(error.partial.message.reasoning_details).toBeUndefined();
    expect(error.partial.message.reasoning).toBeUndefined();
  });
});

describe('Bedrock ConverseStream: frames cut early', () => {
  const whole = [
    messageStart,
    thought(0, 'think'),
    signature(0, 'sig'),
    stop(0),
    text(1, 'answer'),
    stop(1),
    messageStop(),
    ev('metadata', { usage: { inputTokens: 1 } }),
  ];

  it('is finished only at messageStop, and an answer without it is a broken stream', () => {
    const acc = new BedrockStreamAccumulator(true);
    for (const e of whole.slice(0, 6)) acc.accept(e);
    expect(acc.finished).toBe(false);
    acc.accept(whole[6]!);
    expect(acc.finished).toBe(true);
    expect(failure(whole.slice(0, 6), signed).problem).toBe('the stream ended before its final event');
  });

  it('a byte stream cut inside any frame keeps no reasoning and says where it broke', () => {
    const wire = formatSse(whole.slice(0, 7));
    for (let at = 1; at < wire.length; at++) {
      const carriers = bedrockStreamCarriers(signed);
      carriers.feed(wire.slice(0, at));
      let partial;
      try {
        partial = carriers.end();
      } catch (error) {
        partial = (error as StreamCarrierError<ParsedAnswer>).partial;
        expect((error as StreamCarrierError<ParsedAnswer>).problem).toMatch(
          /^the stream (was cut off inside this event|ended before its final event)$/,
        );
      }
      expect(partial.message.reasoning_details, `cut at ${at}`).toBeUndefined();
    }
  });

  it('maps the stop reason of a whole stream, and none of a broken one', () => {
    expect(read(whole, true).finishReason).toBe('stop');
    expect(read([messageStart, text(0, 'x'), stop(0), messageStop('max_tokens')]).finishReason).toBe('length');
    expect(read([messageStart, text(0, 'x'), stop(0), messageStop('guardrail_intervened')]).finishReason).toBe(
      'content-filter',
    );
  });

  it('reads metadata (even with one key) and messageStart without a note', () => {
    const carriers = bedrockStreamCarriers(signed);
    for (const e of [...whole, ev('metadata', { usage: { outputTokens: 3 } })]) carriers.acceptEvent(e);
    expect(carriers.end().message.content).toBe('answer');
    expect(carriers.notes).toEqual([]);
  });

  it('skips a delta with no carrier (citation, empty) and its block, saying so', () => {
    const carriers = bedrockStreamCarriers();
    for (const e of [
      messageStart,
      delta(0, { citation: { title: 't' } }),
      delta(0, { citation: {}, image: {} }),
      stop(0),
      delta(1, {}),
      stop(1),
      text(2, 'ok'),
      stop(2),
      messageStop(),
    ])
      carriers.acceptEvent(e);
    expect(carriers.end().message).toEqual({ role: 'assistant', content: 'ok' });
    expect(carriers.notes).toEqual([
      'skipped a citation delta in content block 0: no carrier for it',
      'skipped a citation/image delta in content block 0: no carrier for it',
      'skipped an empty delta in content block 1: no carrier for it',
    ]);
    expect(fault([messageStart, delta(0, { citation: {} }), text(0, 'x')])).toEqual([
      2,
      'a text delta for content block 0, which is a block of another kind',
    ]);
    expect(fault([messageStart, text(0, 'x'), delta(0, { citation: {} })])).toEqual([
      2,
      'a citation delta for content block 0, which is a text block',
    ]);
    expect(fault([messageStart, text(0, 'x'), delta(0, {})])).toEqual([
      2,
      'an empty delta for content block 0, which is a text block',
    ]);
    expect(fault([messageStart, text(0, 'x'), delta(0, { citation: {}, image: {} })])).toEqual([
      2,
      'a citation/image delta for content block 0, which is a text block',
    ]);
  });
});

describe('Bedrock ConverseStream: exception events and faults', () => {
  it.each([
    'internalServerException',
    'modelStreamErrorException',
    'validationException',
    'throttlingException',
    'serviceUnavailableException',
  ])('names %s and its message', (name) => {
    expect(fault([messageStart, text(0, 'partial'), ev(name, { message: 'went wrong' })])).toEqual([
      2,
      `the provider sent ${name}: went wrong`,
    ]);
  });

  it('names an exception without a message, and one sent in the SDK wrapping', () => {
    expect(fault([messageStart, ev('throttlingException', {})])).toEqual([
      1,
      'the provider sent throttlingException: ',
    ]);
    const wrapped: SseEvent = { data: JSON.stringify({ validationException: { message: 'bad input' } }) };
    expect(fault([wrapped])).toEqual([0, 'the provider sent validationException: bad input']);
  });

  it('keeps the text read before an exception, never the reasoning', () => {
    const error = failure(
      [
        messageStart,
        thought(0, 'hm'),
        signature(0, 's'),
        stop(0),
        text(1, 'partial'),
        ev('internalServerException', { message: 'x' }),
      ],
      signed,
    );
    expect(error.partial.message.content).toBe('partial');
    expect(error.partial.message.reasoning_details).toBeUndefined();
  });

  it('names data that is not a JSON object, and an event with no type', () => {
    expect(fault([{ event: 'contentBlockDelta', data: '[1]' }])).toEqual([0, 'data is not a JSON object']);
    expect(fault([{ data: JSON.stringify({ unknownThing: 1 }) }])).toEqual([0, 'an event with no event type']);
    expect(
      fault([
        { data: JSON.stringify({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: 'x' } }, extra: {} }) },
      ]),
    ).toEqual([0, 'an event with no event type']);
  });

  it('unwraps the SDK wrapping only for an unnamed or "message" event', () => {
    const body = (e: SseEvent) => ({ [e.event!]: JSON.parse(e.data) });
    const events = [messageStart, text(0, 'wrapped'), stop(0), messageStop()];
    expect(read(events.map((e) => ({ event: 'message', data: JSON.stringify(body(e)) }))).message.content).toBe(
      'wrapped',
    );
    // A named event whose payload has one object member is that event's own payload, not a wrapping.
    expect(fault([messageStart, ev('contentBlockDelta', { delta: { text: 'x' } })])).toEqual([
      1,
      'contentBlockDelta has no numeric contentBlockIndex',
    ]);
  });

  it('notes an unknown event type, named or wrapped, and reads on', () => {
    const carriers = bedrockStreamCarriers();
    for (const e of [
      messageStart,
      ev('surprise', {}),
      { data: JSON.stringify({ futureEvent: {} }) },
      text(0, 'ok'),
      stop(0),
      messageStop(),
    ])
      carriers.acceptEvent(e);
    expect(carriers.end().message.content).toBe('ok');
    expect(carriers.notes).toEqual([
      'skipped unknown event type "surprise"',
      'skipped unknown event type "futureEvent"',
    ]);
  });
});
