import type { ParsedAnswer } from '../parsed-answer.js';
import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import type { History } from '../../../shared/history/history.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { replayForRoute } from '../../replay/replay-for-route.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { resolveRoute } from '../../../shared/route-table/resolve-route.js';
import type { RouteTarget } from '../../../shared/route-table/route-table.js';
import { formatSse } from '../../../shared/sse/parse-sse.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { feedSplit } from '../split-stream.js';
import { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { fromOpenAIResponsesResponse } from './from-response.js';
import { renderOpenAIResponsesAnswer } from '../../../provider/families/openai-responses/render-answer.js';
import { openAIResponsesStreamCarriers, readOpenAIResponsesStream } from './stream-carriers.js';
import { aScriptedAnswer } from '../../../../test/helpers/scripted-answer-arbitraries.test-helper.js';

const spec = {
  id: 'openai-responses',
  target: { provider: 'openai-responses', model: 'gpt-5' },
} as unknown as ProviderSpec;
const table = loadRouteTable();
const responses = resolveRoute(table, { provider: 'openai-responses', host: 'api.openai.com', model: 'gpt-5' });

const scripted = aScriptedAnswer();

/** A two-step tool loop as captured from the Responses API (rendered by the mock's own renderer). */
function capturedLoopAnswer(): Record<string, unknown> {
  return renderOpenAIResponsesAnswer(
    {
      reasoning: 'Need the file list.',
      tool_calls: [{ id: 'call_ls', type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } }],
    },
    { spec, call: 0, scenario: 'loop' },
  ).body as Record<string, unknown>;
}

function capturedLoop(): History {
  const first = fromOpenAIResponsesResponse(capturedLoopAnswer());
  const second = fromOpenAIResponsesResponse(
    renderOpenAIResponsesAnswer({ reasoning: 'Summarise.', content: 'Two files.' }, { spec, call: 1, scenario: 'loop' })
      .body,
  );
  return {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is here?' },
      first.message,
      { role: 'tool', tool_call_id: 'call_ls', content: 'a.txt b.txt' },
      second.message,
      { role: 'user', content: 'Thanks' },
    ],
  };
}

describe('openai-responses stream carriers', () => {
  test('a rendered stream gives what the rendered body gives, however its bytes are split', () => {
    fc.assert(
      fc.property(scripted, fc.nat({ max: 4 }), fc.array(fc.nat(), { maxLength: 8 }), (answer, call, cuts) => {
        const { body, stream } = renderOpenAIResponsesAnswer(answer, { spec, call, scenario: 'prop' });
        expect(feedSplit(openAIResponsesStreamCarriers(), formatSse(stream), cuts).end()).toEqual(
          fromOpenAIResponsesResponse(body),
        );
      }),
    );
  });

  it('takes encrypted_content from output_item.done, never from output_item.added', () => {
    const item = { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAAA-whole' };
    const answer = readOpenAIResponsesStream([
      {
        data: JSON.stringify({
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...item, encrypted_content: 'gAAAA-parti' },
        }),
      },
      { data: JSON.stringify({ type: 'response.output_item.done', output_index: 0, item }) },
      { data: JSON.stringify({ type: 'response.completed', response: { status: 'completed', output: [item] } }) },
    ]);
    expect(answer.carriers.reasoning_details).toEqual([
      { type: 'reasoning.encrypted', data: 'gAAAA-whole', id: 'rs_1', format: 'openai-responses-v1', index: 0 },
    ]);
  });

  it('on a cut stream keeps the summary and never the encrypted blob', () => {
    const { stream } = renderOpenAIResponsesAnswer(
      { reasoning: 'Thinking hard.', content: 'Done.' },
      { spec, call: 0, scenario: 'cut' },
    );
    const upToMessage = stream.slice(0, stream.findIndex((e) => e.event === 'response.output_text.delta') + 1);
    const carriers = openAIResponsesStreamCarriers();
    carriers.feed(formatSse(upToMessage) + 'event: response.output_text.delta\ndata: {"type":"response.output_te');
    let error: unknown;
    try {
      carriers.end();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamCarrierError);
    const e = error as StreamCarrierError<ParsedAnswer>;
    expect(e.eventIndex).toBe(upToMessage.length);
    expect(e.partial.carriers.reasoning).toBe('Thinking hard.');
    expect(e.partial.carriers.reasoning_details?.some((d) => d.type === 'reasoning.encrypted')).toBe(false);
    expect(e.partial.carriers.native).toBeUndefined();
  });

  it('skips an unknown event type with a note; names bad JSON and provider errors by index', () => {
    const carriers = openAIResponsesStreamCarriers();
    for (const type of ['response.teleported', 'response.completed'])
      carriers.acceptEvent({ data: JSON.stringify({ type, response: { status: 'completed' } }) });
    expect(carriers.end().message.content).toBeNull();
    expect(carriers.notes).toEqual(['skipped unknown event type "response.teleported"']);
    expect(() =>
      readOpenAIResponsesStream([{ data: JSON.stringify({ type: 'response.created' }) }, { data: '{' }]),
    ).toThrow(/stream event 1: invalid JSON/);
    expect(() =>
      readOpenAIResponsesStream([
        { data: JSON.stringify({ type: 'response.failed', response: { error: { message: 'boom' } } }) },
      ]),
    ).toThrow(/stream event 0: .*boom/);
    expect(() =>
      readOpenAIResponsesStream([
        { data: JSON.stringify({ type: 'response.output_text.delta', output_index: 3, delta: 'x' }) },
      ]),
    ).toThrow(/never added/);
  });
});

describe('openai-responses request', () => {
  it('replays reasoning items verbatim before their function call, stateless', () => {
    const body = replayForRoute(deepFreeze(capturedLoop()), responses).body as {
      input: Array<Record<string, unknown>>;
    };
    expect(body).toMatchObject({ model: 'gpt-5', store: false, include: ['reasoning.encrypted_content'] });
    const types = body.input.map((i) => i.type ?? i.role);
    expect(types).toEqual([
      'system',
      'user',
      'reasoning',
      'function_call',
      'function_call_output',
      'reasoning',
      'message',
      'user',
    ]);
    const [rs, fc] = [body.input[2]!, body.input[3]!];
    expect(rs).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need the file list.' }] });
    expect(String(rs.id)).toMatch(/^rs_/);
    // The fc_ id the provider issued, verbatim: the provider pairs it with its reasoning item.
    const issued = (capturedLoopAnswer().output as Array<Record<string, unknown>>).find(
      (i) => i.type === 'function_call',
    )!.id;
    expect(fc).toEqual({ type: 'function_call', id: issued, call_id: 'call_ls', name: 'ls', arguments: '{"dir":"."}' });
    const stored = capturedLoop().messages[2]!.reasoning_details!.find((d) => d.type === 'reasoning.encrypted');
    expect(rs.encrypted_content).toBe(stored && 'data' in stored ? stored.data : undefined);
  });

  it('sends no reasoning item without encrypted_content, and then no fc_ id to pair with it', () => {
    const history = capturedLoop();
    const m = history.messages[2]!;
    history.messages[2] = {
      ...m,
      reasoning_details: m.reasoning_details!.filter((d) => d.type !== 'reasoning.encrypted'),
    };
    const input = (replayForRoute(history, responses).body as { input: Array<Record<string, unknown>> }).input;
    expect(input[2]).toEqual({ type: 'function_call', call_id: 'call_ls', name: 'ls', arguments: '{"dir":"."}' });
  });

  it('keeps the fc_ ids and encrypted reasoning off other routes, and OpenRouter gets the items as reasoning_details', () => {
    const history = deepFreeze(capturedLoop());
    const fcId = (replayForRoute(history, responses).body as { input: Array<Record<string, unknown>> }).input[3]!
      .id as string;
    const blob = history.messages[2]!.reasoning_details!.flatMap((d) =>
      d.type === 'reasoning.encrypted' ? [d.data] : [],
    )[0]!;
    const targets: RouteTarget[] = [
      { provider: 'openai', host: 'api.openai.com', model: 'gpt-5' },
      { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-pro' },
      { provider: 'gemini', host: 'generativelanguage.googleapis.com', model: 'gemini-3-pro-preview' },
      { provider: 'copilot', host: 'api.githubcopilot.com', model: 'gpt-5' },
      { provider: 'anthropic', host: 'api.anthropic.com', model: 'claude-sonnet-4-5' },
    ];
    for (const target of targets) {
      const policy = resolveRoute(table, target);
      const wire = JSON.stringify(replayForRoute(history, policy).body);
      expect(wire, policy.routeId).not.toContain(fcId);
      expect(wire, policy.routeId).not.toContain(blob);
      expect(wire, policy.routeId).not.toContain('encrypted_content');
    }
    const openrouter = replayForRoute(
      history,
      resolveRoute(table, { provider: 'openrouter', host: 'openrouter.ai', model: 'openai/gpt-5' }),
    ).body;
    expect(JSON.stringify(openrouter)).not.toContain(fcId);
    expect((openrouter.messages as Array<Record<string, unknown>>)[2]!.reasoning_details).toEqual(
      history.messages[2]!.reasoning_details,
    );
  });

  it('leaves history as it was', () => {
    const history = capturedLoop();
    const before = JSON.stringify(history);
    replayForRoute(deepFreeze(history), responses, { stream: true });
    expect(JSON.stringify(history)).toBe(before);
  });
});
