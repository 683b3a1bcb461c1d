import { describe, expect, it } from 'vitest';
import type { History } from '../../../shared/history/history.js';
import { mockRedactedData, mockSignThinking } from '../../../provider/signing/mock-signature.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { claudeOpaqueStrings } from './anthropic-reasoning-items.js';
import { toAnthropicMessagesRequest } from './to-request.js';

const policy = (host = 'api.anthropic.com', fields: RoutePolicy['fields'] = ['reasoning_details']): RoutePolicy => ({
  routeId: 'anthropic',
  label: 'Anthropic',
  family: 'anthropic-messages',
  tier: 'standard',
  fields,
  flags: {},
  target: { provider: 'anthropic', host, model: 'claude-sonnet-4-5' },
});

const sigA = mockSignThinking('first thought', 0);
const redacted = mockRedactedData('seed', 1);
const sigC = mockSignThinking('third thought', 2);

const history: History = {
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'weather in Oslo and Rome?' },
    {
      role: 'assistant',
      content: null,
      reasoning: 'first thought',
      reasoning_details: [
        { type: 'thinking', thinking: 'first thought', signature: sigA },
        { type: 'redacted_thinking', data: redacted },
        {
          type: 'reasoning.text',
          text: 'third thought',
          signature: sigC,
          format: 'anthropic-claude-v1',
          index: 2,
          id: null,
        },
      ],
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_1', content: '-3C' },
    { role: 'tool', tool_call_id: 'toolu_2', content: '14C' },
  ],
};

describe('convertToAnthropicMessages', () => {
  it('replays thinking and redacted blocks verbatim, in stored order, before tool_use; merges tool results', () => {
    const { body, path, headers } = toAnthropicMessagesRequest(deepFreeze(structuredClone(history)), policy());
    expect(path).toBe('/v1/messages');
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(body.system).toEqual([{ type: 'text', text: 'be brief' }]);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'weather in Oslo and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'first thought', signature: sigA },
          { type: 'redacted_thinking', data: redacted },
          { type: 'thinking', thinking: 'third thought', signature: sigC },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '-3C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: '14C' },
        ],
      },
    ]);
  });

  it('never mutates the history (deep-frozen input, byte-identical after)', () => {
    const input = structuredClone(history);
    const before = JSON.stringify(input);
    toAnthropicMessagesRequest(deepFreeze(input), policy());
    expect(JSON.stringify(input)).toBe(before);
  });

  it('leaves out unsigned thinking and foreign-format reasoning (a foreign signature is never valid on Claude)', () => {
    const h: History = {
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'hello',
          reasoning_details: [
            { type: 'thinking', thinking: 'unsigned' },
            { type: 'reasoning.text', text: 'gemini text', signature: 'Zm9yZWlnbg==', format: 'google-gemini-v1' },
            { type: 'reasoning.encrypted', data: 'gAAAA-openai', format: 'openai-responses-v1' },
            { type: 'reasoning.summary', summary: 'sum', format: 'anthropic-claude-v1' },
          ],
        },
        { role: 'user', content: 'again' },
      ],
    };
    const { body } = toAnthropicMessagesRequest(deepFreeze(h), policy());
    expect((body.messages as { content: unknown[] }[])[1]!.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('sends no reasoning when the route does not read reasoning_details', () => {
    const { body } = toAnthropicMessagesRequest(history, policy('api.anthropic.com', []));
    const assistant = (body.messages as { content: { type: string }[] }[])[1]!;
    expect(assistant.content.map((b) => b.type)).toEqual(['tool_use', 'tool_use']);
  });

  it('omits reasoning_details when the fallback withholds it', () => {
    const { body } = toAnthropicMessagesRequest(history, policy(), { omit: new Set(['reasoning_details']) });
    expect(JSON.stringify(body.messages)).not.toMatch(/thinking|signature/);
  });

  it('writes the Vertex shape: no model in the body, version in the body, model in the path', () => {
    const req = toAnthropicMessagesRequest(history, policy('us-east5-aiplatform.googleapis.com'), { stream: true });
    expect(req.body.model).toBeUndefined();
    expect(req.body.anthropic_version).toBe('vertex-2023-10-16');
    expect(req.body.stream).toBe(true);
    expect(req.path).toBe('/models/claude-sonnet-4-5:streamRawPredict');
    expect(req.headers['anthropic-version']).toBeUndefined();
  });

  it('converts chat-shaped tools and lets route flags override the thinking request', () => {
    const p = { ...policy(), flags: { thinking: { type: 'adaptive' } } };
    const tools = [
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'w',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const { body } = toAnthropicMessagesRequest(history, p, { tools });
    expect(body.tools).toEqual([{ name: 'weather', description: 'w', input_schema: tools[0]!.function.parameters }]);
    expect(body.thinking).toEqual({ type: 'adaptive', budget_tokens: 4096 });
  });

  it('refuses tool arguments that are not a JSON object, naming the message', () => {
    const h: History = {
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{oops' } }],
        },
      ],
    };
    expect(() => toAnthropicMessagesRequest(h, policy())).toThrow(/\/messages\/1\/tool_calls\/0\/function\/arguments/);
  });

  it('leaves out an assistant turn it has nothing to say for, merging the user turns around it', () => {
    const h: History = {
      messages: [
        { role: 'user', content: 'a' },
        {
          role: 'assistant',
          content: '',
          reasoning_details: [{ type: 'reasoning.encrypted', data: 'gAAAA', format: 'openai-responses-v1' }],
        },
        { role: 'user', content: 'b' },
      ],
    };
    expect(toAnthropicMessagesRequest(deepFreeze(h), policy()).body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('claudeOpaqueStrings lists what a Claude route must get back, and nothing foreign', () => {
    expect(claudeOpaqueStrings(history.messages[2]!.reasoning_details)).toEqual([sigA, redacted, sigC]);
    expect(
      claudeOpaqueStrings([
        { type: 'reasoning.text', text: 'g', signature: 'Zm9v', format: 'google-gemini-v1' },
        { type: 'thinking', thinking: 'u' },
      ]),
    ).toEqual([]);
  });
});
