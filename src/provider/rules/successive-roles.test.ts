import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { successiveFindings } from './successive-roles.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const answer = (id: string, body: Record<string, unknown>, model = String(body.model)) => {
  const spec = specForModel(specs.get(id)!, model);
  const [first] = judgeRequest(spec, body);
  return first && JSON.stringify(fillRejection(spec.rejections[first.rejection]!, first.params).body);
};
const rule: MessageRule = { rejection: 'r', successive: { roles: ['user', 'assistant'], skip: ['system'] } };
const judge = (roles: string[]) =>
  successiveFindings(
    rule.successive!,
    rule,
    roles.map((role) => ({ role, content: 'x' })),
    'messages',
  );

describe('no two user or assistant messages in a row', () => {
  it('accepts any history where user and assistant take turns, with tool results and system messages between', () => {
    const round = fc.constantFrom(
      ['user', 'assistant'],
      ['user', 'assistant', 'tool', 'assistant'],
      ['user', 'assistant', 'tool', 'tool', 'assistant'],
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(round, { minLength: 1, maxLength: 6 }), (system, rounds) => {
        expect(judge([...(system ? ['system'] : []), ...rounds.flat()])).toEqual([]);
      }),
    );
  });

  it('names the pair by index, counting the system message and skipping over it', () => {
    expect(judge(['system', 'user', 'user'])).toMatchObject([{ params: { before: 1, index: 2, role: 'user' } }]);
    expect(judge(['user', 'system', 'user'])).toMatchObject([{ params: { before: 0, index: 2 } }]);
    expect(judge(['user', 'assistant', 'tool', 'assistant', 'assistant'])).toMatchObject([
      { params: { before: 3, index: 4 } },
    ]);
  });

  it('DeepSeek reasoner and Bedrock answer with their own words; deepseek-chat is not held to it', () => {
    const pair = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer' },
      { role: 'user', content: 'second' },
      { role: 'user', content: 'third' },
    ];
    expect(answer('deepseek', { model: 'deepseek-reasoner', messages: pair })).toContain(
      'deepseek-reasoner does not support successive user or assistant messages (messages[2] and messages[3] in your input).',
    );
    expect(answer('deepseek', { model: 'deepseek-chat', messages: pair })).toBeUndefined();
    const bedrock = { messages: pair.map(({ role, content }) => ({ role, content: [{ text: content }] })) };
    expect(answer('bedrock-claude', bedrock, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toContain(
      'A conversation must alternate between user and assistant roles.',
    );
  });
});
