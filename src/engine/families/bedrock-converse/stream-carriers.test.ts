import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { ScriptedAnswer } from '../../../shared/scenarios/scenario.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { readStreamEvents } from '../stream-carriers.js';
import type { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { fromBedrockConverseResponse } from './from-response.js';
import { renderBedrockConverseAnswer } from '../../../provider/families/bedrock-converse/render-answer.js';
import { BedrockStreamAccumulator, bedrockStreamCarriers } from './stream-carriers.js';
import { streamFailure } from '../split-stream.js';

const specFor = (model: string) =>
  ({ id: 'bedrock', target: { provider: 'bedrock', model } }) as unknown as ProviderSpec;
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const R1 = 'us.deepseek.r1-v1:0';
const render = (answer: ScriptedAnswer, model = CLAUDE) =>
  renderBedrockConverseAnswer(answer, { spec: specFor(model), call: 0, scenario: 'unit' });
const signedPolicy = {
  replayPolicy: 'signed',
  target: { provider: 'bedrock', host: 'h', model: CLAUDE },
} as RoutePolicy;

const toolAnswer: ScriptedAnswer = {
  reasoning: 'Look it up before answering.',
  content: 'One moment.',
  tool_calls: [{ id: 'tu_1', type: 'function', function: { name: 'lookup', arguments: '{"q": "tides"}' } }],
};

const ev = (event: string, payload: Record<string, unknown>): SseEvent => ({ event, data: JSON.stringify(payload) });

function failure(events: SseEvent[] | string, policy?: RoutePolicy): StreamCarrierError<ParsedAnswer> {
  return streamFailure(bedrockStreamCarriers(policy), events);
}

describe('Bedrock ConverseStream carriers', () => {
  it.each([
    ['Claude, signed thinking + text + tool use', toolAnswer, CLAUDE],
    ['Claude, redacted', { reasoning: 'x', redacted: true, content: 'ok' }, CLAUDE],
    ['DeepSeek R1, unsigned reasoning', { reasoning: 'think', content: 'ok' }, R1],
    ['no reasoning', { content: 'ok' }, CLAUDE],
  ] as [string, ScriptedAnswer, string][])('gives the unstreamed answer: %s', (_n, answer, model) => {
    const { body, stream } = render(answer, model);
    expect(readStreamEvents(new BedrockStreamAccumulator(model === CLAUDE), stream)).toEqual(
      fromBedrockConverseResponse(body),
    );
  });

  it('gives the same answer however the bytes are split (every split point)', () => {
    const { body, stream } = render(toolAnswer);
    const text = formatSse(stream);
    const expected = fromBedrockConverseResponse(body);
    for (let at = 0; at <= text.length; at++) {
      const carriers = bedrockStreamCarriers(signedPolicy);
      carriers.feed(text.slice(0, at));
      carriers.feed(text.slice(at));
      expect(carriers.end()).toEqual(expected);
    }
  });

  it('keeps the signature from a final text-less signature delta', () => {
    const { stream } = render(toolAnswer);
    const sigEvent = stream.find((e) => e.data.includes('"signature"'))!;
    expect(Object.keys(JSON.parse(sigEvent.data).delta.reasoningContent)).toEqual(['signature']);
    const detail = readStreamEvents(new BedrockStreamAccumulator(true), stream).message.reasoning_details![0]!;
    expect(detail).toEqual({
      type: 'thinking',
      thinking: toolAnswer.reasoning,
      signature: JSON.parse(sigEvent.data).delta.reasoningContent.signature,
    });
  });

  it('reads the SDK wrapping ({contentBlockDelta: {...}}) without event names', () => {
    const { body, stream } = render(toolAnswer);
    const wrapped = stream.map((e) => ({ data: JSON.stringify({ [e.event!]: JSON.parse(e.data) }) }));
    expect(readStreamEvents(new BedrockStreamAccumulator(true), wrapped)).toEqual(fromBedrockConverseResponse(body));
  });

  it('a stream cut inside the signature event keeps text and never emits the half-built signed block', () => {
    const text = formatSse(render(toolAnswer).stream);
    const error = failure(text.slice(0, text.indexOf('"signature"') + 15), signedPolicy);
    expect(error.problem).toMatch(/cut off inside this event/);
    expect(error.partial.message.reasoning_details).toBeUndefined();
  });

  it('on a signed route, a reasoning block stopped without its signature is an error at that event', () => {
    const events = [
      ev('messageStart', { role: 'assistant' }),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'half' } } }),
      ev('contentBlockStop', { contentBlockIndex: 0 }),
    ];
    const error = failure(events, signedPolicy);
    expect(error.eventIndex).toBe(2);
    expect(error.problem).toMatch(/without a signature/);
    // Unsigned models end reasoning without one; that is a whole block there.
    const ok = readStreamEvents(new BedrockStreamAccumulator(false), [
      ...events,
      ev('messageStop', { stopReason: 'end_turn' }),
    ]);
    expect(ok.message.reasoning_details).toEqual([{ type: 'thinking', thinking: 'half' }]);
  });

  it('refuses a signature delta on a text block, naming the event', () => {
    const error = failure([
      ev('messageStart', { role: 'assistant' }),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } }),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'abc' } } }),
    ]);
    expect(error.eventIndex).toBe(2);
    expect(error.problem).toMatch(/signature delta for content block 0, which is a text block, not reasoning/);
    expect(error.partial.message.content).toBe('hi');
  });

  it('skips an unknown event type with a note; names invalid JSON and provider exceptions by index', () => {
    const { stream } = render(toolAnswer);
    const carriers = bedrockStreamCarriers();
    for (const e of [stream[0]!, ev('surprise', {}), ...stream.slice(1)]) carriers.acceptEvent(e);
    expect(carriers.end().message.tool_calls).toHaveLength(1);
    expect(carriers.notes).toEqual(['skipped unknown event type "surprise"']);
    const bad = failure([stream[0]!, stream[1]!, { event: 'contentBlockDelta', data: '{"contentBlockIndex":0,' }]);
    expect([bad.eventIndex, bad.problem]).toEqual([2, expect.stringMatching(/invalid JSON/)]);
    const exc = failure([stream[0]!, ev('modelStreamErrorException', { message: 'boom' })]);
    expect([exc.eventIndex, exc.problem]).toEqual([1, 'the provider sent modelStreamErrorException: boom']);
  });
});
