import { describe, expect, it } from 'vitest';
import type { History, Message } from '../../../shared/history/history.js';
import { mockRedactedData, mockSignThinking } from '../../../provider/signing/mock-signature.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { ReplayPolicy, RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepFreeze } from '../../../shared/objects/deep-freeze.js';
import { fromBedrockConverseResponse } from './from-response.js';
import { renderBedrockConverseAnswer } from '../../../provider/families/bedrock-converse/render-answer.js';
import { toBedrockConverseRequest } from './to-request.js';

const policy = (
  replayPolicy: ReplayPolicy | undefined,
  model = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
): RoutePolicy => ({
  routeId: 'bedrock',
  label: 'Bedrock',
  family: 'bedrock-converse',
  tier: 'standard',
  fields: ['reasoning_details'],
  flags: {},
  ...(replayPolicy ? { replayPolicy } : {}),
  target: { provider: 'bedrock', host: 'bedrock-runtime.us-east-1.amazonaws.com', model },
});

const sig0 = mockSignThinking('earlier plan', 0);
const red1 = mockRedactedData('r', 1);
const sigLoop = mockSignThinking('call the tool', 0);

/** An earlier finished exchange, a new user question, and a tool loop in progress. */
const history: History = {
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'first question' },
    {
      role: 'assistant',
      content: 'first answer',
      reasoning_details: [
        { type: 'thinking', thinking: 'earlier plan', signature: sig0 },
        { type: 'redacted_thinking', data: red1 },
      ],
    },
    { role: 'user', content: 'second question' },
    {
      role: 'assistant',
      content: null,
      reasoning_details: [
        { type: 'reasoning.text', text: 'call the tool', signature: sigLoop, format: 'anthropic-claude-v1' },
      ],
      tool_calls: [{ id: 'tu_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }],
    },
    { role: 'tool', tool_call_id: 'tu_1', content: 'result' },
  ],
};

type Wire = { role: string; content: Record<string, unknown>[] }[];
const messagesOf = (replay: ReplayPolicy | undefined, model?: string) =>
  toBedrockConverseRequest(deepFreeze(structuredClone(history)), policy(replay, model)).body.messages as Wire;

describe('convertToConverseMessages', () => {
  it('signed: replays reasoningText+signature and redactedContent verbatim, in order, on every turn', () => {
    const wire = messagesOf('signed');
    expect(wire[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'earlier plan', signature: sig0 } } },
      { reasoningContent: { redactedContent: red1 } },
      { text: 'first answer' },
    ]);
    expect(wire[3]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'call the tool', signature: sigLoop } } },
      { toolUse: { toolUseId: 'tu_1', name: 'lookup', input: { q: 'x' } } },
    ]);
    expect(wire[4]).toEqual({
      role: 'user',
      content: [{ toolResult: { toolUseId: 'tu_1', content: [{ text: 'result' }] } }],
    });
  });

  it('strip: no reasoning before the last user message; the current tool loop keeps its text, unsigned', () => {
    const wire = messagesOf('strip', 'us.deepseek.r1-v1:0');
    expect(wire[1]!.content).toEqual([{ text: 'first answer' }]);
    expect(wire[3]!.content[0]).toEqual({ reasoningContent: { reasoningText: { text: 'call the tool' } } });
  });

  it('unsigned: every turn keeps its reasoning text, never a signature or a redacted blob', () => {
    const wire = messagesOf('unsigned', 'openai.gpt-oss-120b-1:0');
    expect(wire[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'earlier plan' } } },
      { text: 'first answer' },
    ]);
    expect(JSON.stringify(wire)).not.toContain('signature');
    expect(JSON.stringify(wire)).not.toContain('redactedContent');
  });

  it('signed: unsigned reasoning cannot be replayed to Claude and is left out', () => {
    const h: History = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', reasoning_details: [{ type: 'thinking', thinking: 'from gpt-oss' }] },
        { role: 'user', content: 'q2' },
      ],
    };
    const wire = toBedrockConverseRequest(h, policy('signed')).body.messages as Wire;
    expect(wire[1]!.content).toEqual([{ text: 'a' }]);
  });

  it('falls back to the seed rule when the route gives no policy (claude -> signed, else unsigned)', () => {
    expect(JSON.stringify(messagesOf(undefined))).toContain(sig0);
    expect(JSON.stringify(messagesOf(undefined, 'qwen.qwen3-32b-v1:0'))).not.toContain('signature');
  });

  it('requests thinking for Claude only, in additionalModelRequestFields; streaming is the converse-stream path', () => {
    const claude = toBedrockConverseRequest(history, policy('signed'), { stream: true });
    expect(claude.body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 } });
    expect(claude.path).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream');
    expect(claude.body.stream).toBeUndefined();
    expect(
      toBedrockConverseRequest(history, policy('strip', 'us.deepseek.r1-v1:0')).body.additionalModelRequestFields,
    ).toBeUndefined();
  });

  it('never mutates the history', () => {
    const input = structuredClone(history);
    const before = JSON.stringify(input);
    for (const p of ['signed', 'strip', 'unsigned'] as const) toBedrockConverseRequest(deepFreeze(input), policy(p));
    expect(JSON.stringify(input)).toBe(before);
  });

  it('a turn reloaded from storage replays byte-identically (response -> stored JSON -> request)', () => {
    const spec = {
      id: 'bedrock',
      target: { provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' },
    } as unknown as ProviderSpec;
    for (const redacted of [false, true]) {
      const { body } = renderBedrockConverseAnswer(
        {
          reasoning: 'plan it',
          redacted,
          tool_calls: [{ id: 'tu_9', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { spec, call: 0, scenario: 's' },
      );
      const stored = JSON.parse(JSON.stringify(fromBedrockConverseResponse(body).message)) as Message;
      const h: History = {
        messages: [{ role: 'user', content: 'go' }, stored, { role: 'tool', tool_call_id: 'tu_9', content: 'ok' }],
      };
      const wire = toBedrockConverseRequest(h, policy('signed')).body.messages as Wire;
      expect(wire[1]!.content).toEqual(
        (body as { output: { message: { content: unknown[] } } }).output.message.content,
      );
    }
  });
});
