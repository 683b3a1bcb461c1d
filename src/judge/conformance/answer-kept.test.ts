import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/history/history.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';
import type { Scenario } from '../../shared/scenarios/scenario.js';
import type { OutboundRequest } from '../../shared/wire/outbound-request.js';
import { answerOpaqueStrings, opaqueStringsLost } from './answer-kept.js';
import type { EngineUnderTest } from '../engine-under-test.js';
import type { ExchangeResponse } from '../../shared/transport/transport.js';
import { runScenario } from './run-scenario.js';

/**
 * A made-up gateway answering Claude's reasoning as two reasoning_details items (a signed text
 * block and a redacted one), and engines under test that read that answer into history whole, or
 * drop the second item. Nothing here reads the bundled table, specs or mocks.
 */
const answer = {
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      message: {
        role: 'assistant',
        content: 'Done.',
        reasoning_details: [
          {
            type: 'reasoning.text',
            text: 'Plan.',
            signature: 'SIG-one-AAAAAAAA',
            format: 'anthropic-claude-v1',
            index: 0,
          },
          { type: 'reasoning.encrypted', data: 'RED-two-BBBBBBBB', format: 'anthropic-claude-v1', index: 1 },
        ],
      },
    },
  ],
};
const spec = {
  id: 'gate',
  label: 'Gate',
  family: 'openai-chat',
  endpoint: { baseUrl: 'https://gate.test/v1', path: '/chat/completions' },
  target: { provider: 'gate', model: 'anthropic/claude-x' },
  request: { schema: { type: 'object' } },
  rejections: {},
  response: { carriers: ['reasoning_details'] },
  sources: ['https://gate.test/docs'],
  echo: [
    { field: 'reasoning_details', turns: 'assistant-turns', level: 'recommended', source: 'https://gate.test/docs' },
  ],
} as unknown as ProviderSpec;
const table: RouteTable = {
  version: 1,
  routes: [
    {
      id: 'default',
      label: 'default',
      match: { default: true },
      family: 'openai-chat',
      tier: 'standard',
      fields: ['reasoning_details'],
    },
  ],
};
const scenario: Scenario = {
  id: 'one-turn',
  title: 'one turn',
  steps: [{ append: { role: 'user', content: 'Go.' } }, { call: { answer: { content: 'Done.' } } }],
};

/** An engine that sends a fixed request and reads the answer's message, keeping the reasoning items `keep` selects. */
function engine(keep: (items: unknown[]) => unknown[]): EngineUnderTest {
  return {
    name: 'hand-made',
    operations: new Set(['read']),
    startSession: () => ({
      async turn(input, send) {
        const request: OutboundRequest = {
          family: 'openai-chat',
          method: 'POST',
          path: '/chat/completions',
          headers: {},
          body: { model: 'anthropic/claude-x', messages: [{ role: 'user', content: 'Go.' }] },
        };
        return { attempts: [{ attempt: 1, request, response: await send(request as never) }], withheld: [] };
      },
      async readAnswer(response: ExchangeResponse): Promise<Message> {
        const m = (response.body as typeof answer).choices[0]!.message;
        return {
          role: 'assistant',
          content: m.content,
          reasoning_details: keep(m.reasoning_details) as Message['reasoning_details'],
        };
      },
    }),
  };
}
const run = (e: EngineUnderTest) =>
  runScenario(scenario, spec, {
    table,
    specs: new Map([[spec.id, spec]]),
    engine: e,
    send: async () => ({ status: 200, headers: {}, body: structuredClone(answer) }),
  });

describe('the judge holds each answer against the message the engine read from it', () => {
  it('fails an engine that drops a sibling reasoning block when reading the answer', async () => {
    const { verdict, findings } = await run(engine((items) => items.slice(0, 1)));
    expect(findings.filter((f) => f.status === 'fail').map((f) => [f.behaviour, f.call, f.detail])).toEqual([
      ['signatures-verbatim', 0, expect.stringContaining('1 opaque reasoning string(s) of Gate')],
    ]);
    expect(verdict.status).toBe('fail');
  });

  it('passes an engine that keeps every block', async () => {
    const { findings } = await run(engine((items) => items));
    expect(findings.filter((f) => f.status === 'fail')).toEqual([]);
  });
});

describe('answerOpaqueStrings', () => {
  it('reads every family’s opaque keys, and data only on a redacted or encrypted block', () => {
    const body = {
      content: [
        { type: 'thinking', thinking: 't', signature: 'S1' },
        { type: 'redacted_thinking', data: 'R1' },
        { type: 'image', source: { data: 'not-reasoning' } },
      ],
      output: [{ type: 'reasoning', encrypted_content: 'E1' }],
      candidates: [{ content: { parts: [{ text: 'x', thoughtSignature: 'G1' }] } }],
      choices: [{ message: { reasoning_opaque: 'C1' } }],
      reasoningContent: { redactedContent: 'B1' },
    };
    expect(answerOpaqueStrings(body)).toEqual(['S1', 'R1', 'E1', 'G1', 'C1', 'B1']);
  });

  it('reads nothing from a streamed answer, whose later pieces may replace earlier ones', () => {
    const sse =
      'data: {"choices":[{"delta":{"reasoning_opaque":"first"}}]}\n\ndata: {"choices":[{"delta":{"reasoning_opaque":"second"}}]}\n';
    expect(answerOpaqueStrings(sse)).toEqual([]);
  });

  it('finds a kept string wherever the engine stored it (a native record too), escaped as JSON', () => {
    const read: Message = {
      role: 'assistant',
      content: null,
      native: { route: 'gemini', fields: { thoughtSignature: 'a/b"c' } },
    };
    expect(opaqueStringsLost({ thoughtSignature: 'a/b"c', signature: 'gone' }, read)).toEqual(['gone']);
  });
});

describe('what the provider spec says is owed back', () => {
  it('excuses a text-only answer’s blocks when the spec wants reasoning back on tool-call turns only', async () => {
    const toolTurnsOnly = {
      ...spec,
      echo: [
        { field: 'reasoning_details', turns: 'tool-call-turns', level: 'required', source: 'https://gate.test/docs' },
      ],
    } as ProviderSpec;
    const { findings } = await runScenario(scenario, toolTurnsOnly, {
      table,
      specs: new Map([[spec.id, toolTurnsOnly]]),
      engine: engine((items) => items.slice(0, 1)),
      send: async () => ({ status: 200, headers: {}, body: structuredClone(answer) }),
    });
    expect(findings.filter((f) => f.status === 'fail')).toEqual([]);
  });
});
