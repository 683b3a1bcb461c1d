import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import type { ReasoningDetail, ToolCall } from '../../../shared/history/history.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { feedSplit } from '../split-stream.js';
import { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { fromOpenAIChatResponse } from './from-response.js';
import { renderOpenAIChatAnswer } from '../../../provider/families/openai-chat/render-answer.js';
import { openAIChatStreamCarriers, readOpenAIChatStream } from './stream-carriers.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }),
});

/** Cuts a string into pieces at the given fractions, keeping every character. */
function pieces(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * text.length)))]
    .filter((c) => c > 0 && c < text.length)
    .sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of at) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
}

const text = fc.string({ minLength: 1, maxLength: 30 });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 });
const answer = fc.record(
  {
    content: text,
    reasoning_content: text,
    reasoning: text,
    details: fc.array(
      fc.oneof(
        fc.record({
          type: fc.constant('reasoning.text' as const),
          text,
          signature: fc.option(fc.base64String({ minLength: 4, maxLength: 40 }), { nil: undefined }),
        }),
        fc.record({ type: fc.constant('reasoning.summary' as const), summary: text }),
        fc.record({
          type: fc.constant('reasoning.encrypted' as const),
          data: fc.base64String({ minLength: 4, maxLength: 40 }),
        }),
      ),
      { maxLength: 3 },
    ),
    calls: fc.array(fc.record({ name: fc.stringMatching(/^[a-z_]{1,10}$/), args: fc.json() }), { maxLength: 3 }),
  },
  { requiredKeys: ['calls', 'details'] },
);

/** The answer as a chat-completions body, and as a stream cut into deltas the way servers send them. */
type Answer = typeof answer extends fc.Arbitrary<infer T> ? T : never;

function render(a: Answer, split: number[]) {
  const details: ReasoningDetail[] = a.details.map((d, index) => {
    const base = { ...d, index, format: 'anthropic-claude-v1' } as ReasoningDetail;
    if (base.signature === undefined) delete base.signature;
    return base;
  });
  const toolCalls: ToolCall[] = a.calls.map((c, i) => ({
    id: `call_${i}x`,
    type: 'function',
    function: { name: c.name, arguments: c.args },
  }));
  const message: Record<string, unknown> = { role: 'assistant', content: a.content ?? null };
  if (a.reasoning_content !== undefined) message.reasoning_content = a.reasoning_content;
  if (a.reasoning !== undefined) message.reasoning = a.reasoning;
  if (details.length > 0) message.reasoning_details = details;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const finish = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const body = { choices: [{ index: 0, message, finish_reason: finish }] };

  const events: SseEvent[] = [chunk({ role: 'assistant' })];
  for (const field of ['reasoning_content', 'reasoning'] as const) {
    const t = a[field];
    if (t !== undefined) for (const p of pieces(t, split)) events.push(chunk({ [field]: p }));
  }
  for (const d of details) {
    if (d.type === 'reasoning.text') {
      const { signature, ...rest } = d;
      for (const p of pieces(d.text, split)) events.push(chunk({ reasoning_details: [{ ...rest, text: p }] }));
      // OpenRouter sends the signature last, in a delta with no text at all.
      if (signature !== undefined)
        events.push(chunk({ reasoning_details: [{ type: d.type, signature, format: d.format, index: d.index }] }));
    } else if (d.type === 'reasoning.summary') {
      for (const p of pieces(d.summary, split)) events.push(chunk({ reasoning_details: [{ ...d, summary: p }] }));
    } else events.push(chunk({ reasoning_details: [d] }));
  }
  if (a.content !== undefined) for (const p of pieces(a.content, split)) events.push(chunk({ content: p }));
  toolCalls.forEach((tc, index) => {
    events.push(
      chunk({
        tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.function.name, arguments: '' } }],
      }),
    );
    for (const p of pieces(tc.function.arguments, split))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  events.push(chunk({}, finish));
  events.push({ data: JSON.stringify({ id: 'c1', choices: [], usage: { total_tokens: 9 } }) });
  events.push({ data: '[DONE]' });
  return { body, events };
}

describe('openai-chat stream carriers', () => {
  test('a stream gives the answer fromOpenAIChatResponse gives unstreamed, however its bytes are split', () => {
    fc.assert(
      fc.property(answer, cuts, fc.array(fc.nat(), { maxLength: 8 }), (a, split, byteCuts) => {
        const { body, events } = render(a, split);
        const streamed = feedSplit(openAIChatStreamCarriers(), formatSse(events), byteCuts).end();
        expect(streamed).toEqual(fromOpenAIChatResponse(body));
      }),
    );
  });

  const scripted = fc.record(
    {
      content: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      reasoning: fc.string({ maxLength: 20 }),
      redacted: fc.boolean(),
      tool_calls: fc.array(
        fc.record({
          id: fc.stringMatching(/^call_[a-z]{1,4}$/),
          type: fc.constant('function' as const),
          function: fc.record({ name: fc.constant('f'), arguments: fc.json() }),
        }),
        {
          maxLength: 2,
        },
      ),
    },
    { requiredKeys: [] },
  );
  const carrierSets = fc.subarray(['reasoning_content', 'reasoning', 'reasoning_details']);
  test("the fixture renderer's stream reads as its body, however its bytes are split", () => {
    fc.assert(
      fc.property(scripted, carrierSets, fc.array(fc.nat(), { maxLength: 8 }), (scriptedAnswer, carriers, byteCuts) => {
        const spec = {
          id: 'p',
          target: { model: 'm' },
          response: { carriers, detailFormat: 'anthropic-claude-v1' },
        } as unknown as ProviderSpec;
        const { body, stream } = renderOpenAIChatAnswer(scriptedAnswer, { spec, call: 0, scenario: 'prop' });
        expect(feedSplit(openAIChatStreamCarriers(), formatSse(stream), byteCuts).end()).toEqual(
          fromOpenAIChatResponse(body),
        );
      }),
    );
  });

  it('keeps a signature that arrives in a final text-less delta', () => {
    const answer = readOpenAIChatStream([
      chunk({
        reasoning_details: [{ type: 'reasoning.text', text: 'Let me ', format: 'anthropic-claude-v1', index: 0 }],
      }),
      chunk({
        reasoning_details: [{ type: 'reasoning.text', text: 'think.', format: 'anthropic-claude-v1', index: 0 }],
      }),
      chunk({
        reasoning_details: [{ type: 'reasoning.text', signature: 'EqQBsig', format: 'anthropic-claude-v1', index: 0 }],
      }),
      chunk({ content: 'Hi' }, 'stop'),
      { data: '[DONE]' },
    ]);
    expect(answer.carriers.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Let me think.', signature: 'EqQBsig', format: 'anthropic-claude-v1', index: 0 },
    ]);
  });

  it('names the event index of invalid JSON, keeps readable text, and drops signed items', () => {
    const stream = openAIChatStreamCarriers();
    stream.feed(
      formatSse([
        chunk({ reasoning_content: 'step one' }),
        chunk({ reasoning_details: [{ type: 'reasoning.text', text: 'half', signature: 'sig', index: 0 }] }),
        { data: '{"choices": [' },
        chunk({ content: 'never read' }),
      ]),
    );
    const error = (() => {
      try {
        stream.end();
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StreamCarrierError);
    const e = error as StreamCarrierError<ParsedAnswer>;
    expect(e.eventIndex).toBe(2);
    expect(e.message).toMatch(/stream event 2: invalid JSON in data line/);
    expect(e.partial.carriers.reasoning_content).toBe('step one');
    expect(e.partial.carriers.reasoning_details).toBeUndefined();
    expect(e.partial.message.content).toBeNull();
  });

  it('reports a stream cut inside an event with the index that event would have had', () => {
    const stream = openAIChatStreamCarriers();
    stream.feed(formatSse([chunk({ content: 'Hel' })]) + 'data: {"choices":[{"index":0,"delta":{"content":"lo"}');
    expect(() => stream.end()).toThrow(/stream event 1: the stream was cut off inside this event/);
  });

  it('skips an unknown named event with a note; rejects a stream that never finished', () => {
    const carriers = openAIChatStreamCarriers();
    for (const e of [chunk({ content: 'a' }), { event: 'mystery', data: '{}' }, { data: '[DONE]' }])
      carriers.acceptEvent(e);
    expect(carriers.end().message.content).toBe('a');
    expect(carriers.notes).toEqual(['skipped an event of unknown type "mystery"']);
    expect(() => readOpenAIChatStream([chunk({ content: 'a' })])).toThrow(
      /stream event 1: the stream ended before its final event/,
    );
  });

  it('surfaces an error object sent inside the stream', () => {
    expect(() =>
      readOpenAIChatStream([{ data: JSON.stringify({ error: { message: 'Provider returned error' } }) }]),
    ).toThrow(/stream event 0: the provider sent an error in the stream: Provider returned error/);
  });
});
