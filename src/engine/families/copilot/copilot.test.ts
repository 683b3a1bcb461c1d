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
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { feedSplit } from '../split-stream.js';
import { StreamCarrierError } from '../../../shared/errors/stream-carrier-error.js';
import { fromCopilotResponse } from './from-response.js';
import { renderCopilotAnswer } from '../../../provider/families/copilot/render-answer.js';
import { copilotStreamCarriers, readCopilotStream } from './stream-carriers.js';
import { aScriptedAnswer } from '../../../../test/helpers/scripted-answer-arbitraries.test-helper.js';

const spec = (model: string) => ({ id: 'copilot', target: { provider: 'copilot', model } }) as unknown as ProviderSpec;
const table = loadRouteTable();
const copilot = resolveRoute(table, {
  provider: 'copilot',
  host: 'api.githubcopilot.com',
  model: 'gemini-3-pro-preview',
});

const scripted = aScriptedAnswer();
const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] }),
});

describe('copilot stream carriers', () => {
  test('a rendered stream gives what the rendered body gives, however its bytes are split', () => {
    fc.assert(
      fc.property(
        scripted,
        fc.constantFrom('gemini-3-pro-preview', 'claude-sonnet-4.5'),
        fc.array(fc.nat(), { maxLength: 8 }),
        (answer, model, cuts) => {
          const { body, stream } = renderCopilotAnswer(answer, { spec: spec(model), call: 1, scenario: 'prop' });
          expect(feedSplit(copilotStreamCarriers(), formatSse(stream), cuts).end()).toEqual(fromCopilotResponse(body));
        },
      ),
    );
  });

  it('keeps the latest opaque and signature, joins reasoning_text, and keeps the signature out of tool_calls', () => {
    const answer = readCopilotStream([
      chunk({ reasoning_text: 'Let me ' }),
      chunk({ reasoning_text: 'look.' }),
      chunk({ reasoning_opaque: 'OPAQUE_OLD' }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_a',
            type: 'function',
            function: { name: 'ls', arguments: '{}', thought_signature: 'SIG_OLD' },
          },
        ],
      }),
      chunk({ reasoning_opaque: 'OPAQUE_NEW' }),
      chunk({
        tool_calls: [
          {
            index: 1,
            id: 'call_b',
            type: 'function',
            function: { name: 'cat', arguments: '{}', thought_signature: 'SIG_NEW' },
          },
        ],
      }),
      chunk({}, 'tool_calls'),
      { data: '[DONE]' },
    ]);
    expect(answer.carriers.reasoning).toBe('Let me look.');
    expect(answer.carriers.native).toEqual({
      route: 'copilot',
      fields: {
        reasoning_text: true,
        reasoning_opaque: 'OPAQUE_NEW',
        thought_signature: 'SIG_NEW',
        thought_signature_call: 1,
      },
    });
    expect(JSON.stringify(answer.message.tool_calls)).not.toContain('SIG_');
  });

  it('on a broken stream keeps the readable text and no opaque', () => {
    const stream = copilotStreamCarriers();
    stream.feed(
      formatSse([chunk({ reasoning_text: 'partial' }), chunk({ reasoning_opaque: 'OPAQUE' }), { data: '{oops' }]),
    );
    let error: unknown;
    try {
      stream.end();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamCarrierError);
    expect((error as StreamCarrierError<ParsedAnswer>).eventIndex).toBe(2);
    expect((error as StreamCarrierError<ParsedAnswer>).partial.carriers).toEqual({ reasoning: 'partial' });
  });
});

function toolLoop(): History {
  return {
    messages: [
      { role: 'user', content: 'List files' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        reasoning: 'I should list.',
        native: {
          route: 'copilot',
          fields: {
            reasoning_text: true,
            reasoning_opaque: 'OPAQUE_1',
            thought_signature: 'SIG_1',
            thought_signature_call: 0,
          },
        },
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'a.txt' },
      {
        role: 'assistant',
        content: 'One file.',
        reasoning: 'Done.',
        native: { route: 'copilot', fields: { reasoning_text: true, reasoning_opaque: 'OPAQUE_2' } },
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'cat', arguments: '{}' } }],
        reasoning: 'Text without its opaque.',
        native: { route: 'copilot', fields: { reasoning_text: true } },
      },
      { role: 'tool', tool_call_id: 'call_b', content: 'x' },
    ],
  };
}

describe('copilot request', () => {
  it('puts opaque, text and signature back on tool-call messages only, text only beside its opaque', () => {
    const body = replayForRoute(deepFreeze(toolLoop()), copilot).body as { messages: Array<Record<string, unknown>> };
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'ls', arguments: '{}', thought_signature: 'SIG_1' } },
      ],
      reasoning_text: 'I should list.',
      reasoning_opaque: 'OPAQUE_1',
    });
    expect(body.messages[3]).toEqual({ role: 'assistant', content: 'One file.' });
    expect(body.messages[3]).not.toHaveProperty('reasoning_opaque');
    expect(body.messages[4]).not.toHaveProperty('reasoning_text');
    expect(body.messages[4]).not.toHaveProperty('reasoning_opaque');
  });

  it('never leaves the Copilot route', () => {
    const history = deepFreeze(toolLoop());
    const targets: RouteTarget[] = [
      { provider: 'openrouter', host: 'openrouter.ai', model: 'google/gemini-3-pro-preview' },
      { provider: 'deepseek', host: 'api.deepseek.com', model: 'deepseek-v4-pro' },
      { provider: 'openai', host: 'api.openai.com', model: 'gpt-5' },
      { provider: 'gemini', host: 'generativelanguage.googleapis.com', model: 'gemini-3-pro-preview' },
      { provider: 'anthropic', host: 'api.anthropic.com', model: 'claude-sonnet-4-5' },
      { provider: 'custom', host: 'copilot-proxy.example.com', model: 'gemini-3-pro-preview' },
    ];
    for (const target of targets) {
      const policy = resolveRoute(table, target);
      expect(policy.routeId).not.toBe('copilot');
      const wire = JSON.stringify(replayForRoute(history, policy).body);
      expect(wire, policy.routeId).not.toMatch(/OPAQUE_|SIG_|"reasoning_opaque"|"reasoning_text"|"thought_signature"/);
    }
  });

  it('leaves history as it was', () => {
    const history = toolLoop();
    const before = JSON.stringify(history);
    replayForRoute(deepFreeze(history), copilot);
    expect(JSON.stringify(history)).toBe(before);
  });
});
