import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { fromAnthropicMessagesResponse } from '../../../engine/families/anthropic-messages/from-response.js';
import { renderAnthropicMessagesAnswer } from './render-answer.js';
import { toAnthropicMessagesRequest } from '../../../engine/families/anthropic-messages/to-request.js';
import type { History } from '../../../shared/history/history.js';
import { loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import { defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import type { ScriptedAnswer } from '../../../shared/scenarios/scenario.js';
import { fillRejection } from '../../handlers/fill-rejection.js';
import { mockRedactedData, mockSignThinking } from '../../signing/mock-signature.js';
import { judgeAnthropicMessages } from './request-rules.js';
import { judgeRequest } from '../../handlers/judge-request.js';

const spec = loadProviderSpec(`${defaultProvidersDir()}/anthropic.json`);
const policy: RoutePolicy = {
  routeId: 'anthropic',
  label: 'Anthropic',
  family: 'anthropic-messages',
  tier: 'standard',
  fields: ['reasoning_details'],
  flags: {},
  target: { provider: 'anthropic', host: 'api.anthropic.com', model: spec.target.model },
};

/** Runs a three-call conversation: rendered answers parsed back into history, as the runner does. */
function conversation(redacted = false): { history: History; body: Record<string, unknown> } {
  const history: History = {
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'Oslo and Rome weather?' },
    ],
  };
  const call = (answer: ScriptedAnswer, n: number) => {
    const { body } = renderAnthropicMessagesAnswer(answer, { spec, call: n, scenario: 'judge' });
    history.messages.push(fromAnthropicMessagesResponse(body).message);
  };
  call(
    {
      reasoning: 'Oslo first.',
      redacted,
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
    },
    0,
  );
  history.messages.push({ role: 'tool', tool_call_id: 'toolu_1', content: '-3C' });
  call(
    {
      reasoning: 'Now Rome.',
      tool_calls: [{ id: 'toolu_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } }],
    },
    1,
  );
  history.messages.push({ role: 'tool', tool_call_id: 'toolu_2', content: '14C' });
  return { history, body: toAnthropicMessagesRequest(history, policy).body };
}

type Block = Record<string, unknown>;
const assistant = (body: Record<string, unknown>, i: number) => (body.messages as { content: Block[] }[])[i]!.content;

describe('judgeAnthropicMessages', () => {
  it('accepts a faithful replay of signed and redacted thinking across three calls', () => {
    expect(judgeRequest(spec, conversation().body)).toEqual([]);
    expect(judgeRequest(spec, conversation(true).body)).toEqual([]);
  });

  test('rejects a replay with any one signature character changed, with Anthropic wording', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(1), (at, which) => {
        const { body } = conversation();
        const block = assistant(body, which === 0 ? 1 : 3)[0]!;
        const sig = block.signature as string;
        const i = at % sig.replace(/=+$/, '').length;
        block.signature = sig.slice(0, i) + (sig[i] === 'A' ? 'B' : 'A') + sig.slice(i + 1);
        const findings = judgeAnthropicMessages(spec, body);
        expect(findings.map((f) => f.rejection)).toEqual(['invalid-signature']);
        const { body: error } = fillRejection(spec.rejections['invalid-signature']!, findings[0]!.params);
        expect(JSON.stringify(error)).toContain(
          `messages.${which === 0 ? 1 : 3}.content.0: Invalid \`signature\` in \`thinking\` block`,
        );
      }),
    );
  });

  it('rejects edited thinking text and a block rebuilt without its signature', () => {
    const edited = conversation().body;
    assistant(edited, 1)[0]!.thinking = 'Oslo first!';
    expect(judgeAnthropicMessages(spec, edited).map((f) => f.rejection)).toEqual(['invalid-signature']);
    const rebuilt = conversation().body;
    delete assistant(rebuilt, 3)[0]!.signature;
    expect(judgeAnthropicMessages(spec, rebuilt).map((f) => [f.rejection, f.params.index])).toEqual([
      ['missing-signature', 3],
    ]);
  });

  it('rejects two valid blocks swapped (order is part of what is signed)', () => {
    const { body } = conversation();
    const blocks = assistant(body, 1);
    const second = { type: 'thinking', thinking: 'Now Rome.', signature: assistant(body, 3)[0]!.signature };
    blocks.splice(1, 0, second);
    expect(judgeAnthropicMessages(spec, body).map((f) => f.params.block)).toEqual([1]);
    const reordered = [blocks[1]!, blocks[0]!, ...blocks.slice(2)];
    (body.messages as { content: Block[] }[])[1]!.content = reordered;
    expect(judgeAnthropicMessages(spec, body).map((f) => f.rejection)).toContain('invalid-signature');
  });

  it('rejects edited redacted data as invalid data, and redacted data moved in the latest assistant message as "cannot be modified"', () => {
    const { body } = conversation(true);
    const messages = body.messages as { role: string; content: Block[] }[];
    // Make the redacted turn the latest assistant message.
    body.messages = messages.slice(0, 3);
    const block = assistant(body, 1)[0]!;
    const issued = block.data as string;
    block.data = issued.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    expect(judgeAnthropicMessages(spec, body).map((f) => f.rejection)).toEqual(['invalid-redacted']);
    block.data = issued;
    assistant(body, 1).unshift({ type: 'redacted_thinking', data: mockRedactedData('other', 0) });
    expect(judgeAnthropicMessages(spec, body).map((f) => [f.rejection, f.params.block])).toEqual([
      ['blocks-modified', 1],
    ]);
  });

  it('rejects a tool loop whose opening assistant message has no thinking, naming the block found', () => {
    const { body } = conversation();
    const messages = body.messages as { role: string; content: Block[] }[];
    messages[1]!.content = messages[1]!.content.filter((b) => b.type !== 'thinking');
    const findings = judgeAnthropicMessages(spec, body);
    expect(findings).toEqual([
      expect.objectContaining({
        rejection: 'thinking-expected',
        params: expect.objectContaining({ index: 1, found: 'tool_use' }),
      }),
    ]);
    const { body: error } = fillRejection(spec.rejections['thinking-expected']!, findings[0]!.params);
    expect(JSON.stringify(error)).toContain(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.',
    );
  });

  it('does not require thinking outside a tool loop, nor when thinking is off', () => {
    const { body } = conversation();
    const messages = body.messages as { role: string; content: Block[] }[];
    messages[1]!.content = messages[1]!.content.filter((b) => b.type !== 'thinking');
    expect(judgeAnthropicMessages(spec, { ...body, thinking: { type: 'disabled' } })).toEqual([]);
    expect(
      judgeAnthropicMessages(spec, { ...body, messages: [...messages, { role: 'user', content: 'thanks' }] }),
    ).toEqual([]);
  });

  it('answers an unknown key with "Extra inputs are not permitted" before any signature rule', () => {
    const { body } = conversation();
    assistant(body, 1)[0]!.format = 'anthropic-claude-v1';
    const findings = judgeRequest(spec, body);
    // The mock answers with the first finding; the path names the block type, as pydantic tagged unions do
    // (claude-code#4378).
    expect(findings[0]!.rejection).toBe('extra-inputs');
    expect(JSON.stringify(fillRejection(spec.rejections['extra-inputs']!, findings[0]!.params).body)).toContain(
      'messages.1.content.0.thinking.format: Extra inputs are not permitted',
    );
  });

  it('OpenRouter -> Anthropic: Claude items held by OpenRouter cross and are accepted; foreign ones never reach Claude', () => {
    const history: History = {
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          reasoning: 'plan',
          reasoning_details: [
            {
              type: 'reasoning.text',
              text: 'plan',
              signature: mockSignThinking('plan', 0),
              format: 'anthropic-claude-v1',
              id: 'rd-0',
              index: 0,
            },
            {
              type: 'reasoning.encrypted',
              data: mockRedactedData('x', 1),
              format: 'anthropic-claude-v1',
              id: 'rd-1',
              index: 1,
            },
            {
              type: 'reasoning.text',
              text: 'gemini says',
              signature: mockSignThinking('gemini says', 2),
              format: 'google-gemini-v1',
            },
          ],
          tool_calls: [{ id: 'toolu_9', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_9', content: 'r' },
      ],
    };
    const { body } = toAnthropicMessagesRequest(history, policy);
    expect(assistant(body, 1).map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    expect(judgeRequest(spec, body)).toEqual([]);
  });
});

describe('Anthropic’s other replay rules, in its own words', () => {
  const sig = (text: string) => mockSignThinking(text, 0);
  const base = { model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } };
  const first = (body: Record<string, unknown>) => {
    const [f] = judgeRequest(spec, body);
    return (
      f && {
        rejection: f.rejection,
        message: (fillRejection(spec.rejections[f.rejection]!, f.params).body as { error: { message: string } }).error
          .message,
      }
    );
  };

  it('thinking after another block, a prefill ending in thinking, thinking on a final message with thinking off, budget over max_tokens', () => {
    expect(
      first({
        ...base,
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'a' },
              { type: 'thinking', thinking: 't', signature: sig('t') },
            ],
          },
          { role: 'user', content: 'again' },
        ],
      })?.message,
    ).toBe(
      'messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be `thinking` or `redacted_thinking`. Found `text`.',
    );
    expect(
      first({
        ...base,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: sig('t') }] },
        ],
      })?.message,
    ).toBe('messages.1: The final block in an assistant message cannot be `thinking`.');
    const { thinking: _off, ...disabled } = base;
    expect(
      first({
        ...disabled,
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 't', signature: sig('t') },
              { type: 'text', text: 'a' },
            ],
          },
        ],
      })?.rejection,
    ).toBe('thinking-when-disabled');
    expect(first({ ...base, max_tokens: 1024, messages: [{ role: 'user', content: 'q' }] })?.message).toBe(
      '`max_tokens` must be greater than `thinking.budget_tokens`.',
    );
    expect(first({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'q' }] })?.message).toBe(
      'max_tokens: Field required',
    );
  });

  it('edited thinking in the latest assistant message "cannot be modified"; a foreign signature is invalid', () => {
    const loop = (block: Record<string, unknown>) => ({
      ...base,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [block, { type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
      ],
    });
    expect(first(loop({ type: 'thinking', thinking: 'edited', signature: sig('original') }))?.rejection).toBe(
      'blocks-modified',
    );
    expect(
      first(loop({ type: 'thinking', thinking: 'original', signature: 'c2lnbmVkLWJ5LWFub3RoZXI=' }))?.rejection,
    ).toBe('invalid-signature');
    expect(first(loop({ type: 'thinking', signature: sig('') }))?.message).toBe(
      'messages.1.content.0.thinking.thinking: Field required',
    );
  });

  it('accepts documented top-level parameters and server-tool blocks', () => {
    expect(
      judgeRequest(spec, {
        ...base,
        cache_control: { type: 'ephemeral' },
        container: 'c1',
        mcp_servers: [],
        metadata: { user_id: 'u' },
        service_tier: 'auto',
        context_management: { edits: [] },
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 't', signature: sig('t') },
              { type: 'server_tool_use', id: 's', name: 'web_search', input: {} },
              { type: 'web_search_tool_result', tool_use_id: 's', content: [] },
              { type: 'text', text: 'a' },
            ],
          },
          { role: 'user', content: 'more' },
        ],
      }),
    ).toEqual([]);
  });
});

describe('Anthropic text blocks', () => {
  it('refuses an empty text block and a whitespace-only one in its own words, wherever they stand', () => {
    const body = (content: unknown) => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content },
        { role: 'user', content: 'again' },
      ],
    });
    const answer = (b: unknown) => {
      const [f] = judgeRequest(spec, b);
      return f ? JSON.stringify(fillRejection(spec.rejections[f.rejection]!, f.params).body) : 'accepted';
    };
    expect(answer(body([{ type: 'text', text: '' }]))).toContain('messages: text content blocks must be non-empty');
    expect(answer(body(' \n'))).toContain('messages: text content blocks must contain non-whitespace text');
    expect(answer(body('fine'))).toBe('accepted');
  });
});
