import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { endsFindings } from './conversation-ends.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const answer = (id: string, body: Record<string, unknown>) => {
  const spec = specForModel(specs.get(id)!, String(body.model));
  const [first] = judgeRequest(spec, body);
  return first && JSON.stringify(fillRejection(spec.rejections[first.rejection]!, first.params).body);
};
const rule: MessageRule = {
  rejection: 'r',
  ends: { first: ['user'], last: ['user', 'tool'], skip: ['system'], lastUnless: { field: 'prefix', equals: true } },
};
const judge = (messages: Array<Record<string, unknown>>) => endsFindings(rule.ends!, rule, messages, 'messages');
const m = (role: string, extra: Record<string, unknown> = {}) => ({ role, content: 'x', ...extra });

describe('the role a conversation starts and ends on', () => {
  it('accepts user first and user or tool last, system messages not counted', () => {
    expect(judge([m('system'), m('user'), m('assistant'), m('user')])).toEqual([]);
    expect(judge([m('user'), m('assistant'), m('tool'), m('system')])).toEqual([]);
  });

  it('names the first message out of place, then the last', () => {
    expect(judge([m('system'), m('assistant'), m('user')])).toMatchObject([
      { params: { index: 1, role: 'assistant' } },
    ]);
    expect(judge([m('user'), m('assistant')])).toMatchObject([{ params: { index: 1, role: 'assistant' } }]);
  });

  it('lets a last assistant message through when it carries prefix: true (Mistral)', () => {
    expect(judge([m('user'), m('assistant', { prefix: true })])).toEqual([]);
    expect(judge([m('user'), m('assistant', { prefix: false })])).toHaveLength(1);
  });

  it('Claude 4.6 refuses an assistant prefill where Claude 4.5 takes it; Mistral and llama.cpp in their words', () => {
    const prefill = { max_tokens: 1024, messages: [m('user'), { role: 'assistant', content: 'Pruned.' }] };
    expect(answer('anthropic', { model: 'claude-sonnet-4-6', ...prefill })).toContain(
      'This model does not support assistant message prefill. The conversation must end with a user message.',
    );
    expect(answer('anthropic', { model: 'claude-opus-4-7', ...prefill })).toContain('assistant message prefill');
    expect(answer('anthropic', { model: 'claude-sonnet-4-5', ...prefill })).toBeUndefined();
    expect(answer('copilot', { model: 'claude-sonnet-4.6', messages: prefill.messages })).toContain('prefill');
    const converse = (model: string) => {
      const spec = specForModel(specs.get('bedrock-claude')!, model);
      const body = { messages: prefill.messages.map((m) => ({ role: m.role, content: [{ text: m.content }] })) };
      return judgeRequest(spec, body).map((f) => f.rejection);
    };
    expect(converse('us.anthropic.claude-opus-4-6-v1')).toEqual(['assistant-prefill-unsupported']);
    expect(converse('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toEqual([]);
    expect(answer('mistral', { model: 'mistral-medium-latest', messages: prefill.messages })).toContain(
      'Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant',
    );
    expect(answer('llama-cpp-local', { model: 'qwen3-8b', messages: prefill.messages })).toContain(
      'Assistant response prefill is incompatible with enable_thinking.',
    );
    // unlessBody: thinking turned off by the request, the prefill is taken.
    expect(
      answer('llama-cpp-local', {
        model: 'qwen3-8b',
        messages: prefill.messages,
        chat_template_kwargs: { enable_thinking: false },
      }),
    ).toBeUndefined();
  });

  it('deepseek-reasoner refuses an assistant message first', () => {
    expect(
      answer('deepseek', { model: 'deepseek-reasoner', messages: [m('system'), m('assistant'), m('user')] }),
    ).toContain(
      'The first message (except the system message) of deepseek-reasoner must be a user message, but an assistant message detected.',
    );
  });

  // Issue 40: R1-era reports (codecompanion.nvim#760, R2R#1990, gptme#467, dify#16860) quote the last-message rule.
  it('deepseek-reasoner refuses an assistant message last unless it is a prefix; a tool message last is a tool loop', () => {
    const body = (messages: unknown[]) => ({ model: 'deepseek-reasoner', messages });
    expect(answer('deepseek', body([m('system'), m('user'), m('assistant')]))).toContain(
      'The last message of deepseek-reasoner must be a user message, or an assistant message with prefix mode on (refer to https://api-docs.deepseek.com/guides/chat_prefix_completion).',
    );
    const rejections = (model: string, messages: unknown[]) =>
      judgeRequest(specForModel(specs.get('deepseek')!, model), { model, messages }).map((f) => f.rejection);
    expect(rejections('deepseek-reasoner', [m('user'), m('assistant')])).toContain('reasoner-last-not-user');
    expect(rejections('deepseek-reasoner', [m('user'), m('assistant', { prefix: true })])).not.toContain(
      'reasoner-last-not-user',
    );
    const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const loop = [
      m('user'),
      m('assistant', { tool_calls: [call], reasoning_content: 'r' }),
      m('tool', { tool_call_id: 'c1' }),
    ];
    expect(rejections('deepseek-reasoner', loop)).not.toContain('reasoner-last-not-user');
    // Other DeepSeek models are not held to it.
    expect(rejections('deepseek-chat', [m('user'), m('assistant')])).not.toContain('reasoner-last-not-user');
  });
});
