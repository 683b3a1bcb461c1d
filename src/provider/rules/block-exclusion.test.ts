import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { blocksFindings } from './block-exclusion.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const rule: MessageRule = {
  rejection: 'r',
  blocks: { roles: ['user'], path: 'content.*', kinds: ['toolResult', 'tool_result'], notBeside: ['text', 'image'] },
};
const judge = (content: unknown[]) => blocksFindings(rule.blocks!, rule, [{ role: 'user', content }], 'messages');
const toolResult = { toolResult: { toolUseId: 't1', content: [{ text: 'ok' }] } };

describe('blocks that may not share a turn', () => {
  it('refuses a tool result beside text, by member name (Bedrock) or by type (Anthropic)', () => {
    expect(judge([toolResult, { text: 'and then?' }])).toMatchObject([
      { params: { index: 0, path: 'messages.0.content', field: 'text' } },
    ]);
    expect(
      judge([
        { type: 'tool_result', tool_use_id: 't1' },
        { type: 'image', source: {} },
      ]),
    ).toHaveLength(1);
  });

  it('takes tool results alone, text alone, and a cache point beside results', () => {
    expect(judge([toolResult, toolResult])).toEqual([]);
    expect(judge([{ text: 'hi' }])).toEqual([]);
    expect(judge([toolResult, { cachePoint: { type: 'default' } }])).toEqual([]);
  });

  it('Bedrock answers with the turn named', () => {
    const spec = specForModel(specs.get('bedrock-claude')!, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    const body = {
      messages: [
        { role: 'user', content: [{ text: 'Who was Mozart?' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'rag', input: {} } }] },
        { role: 'user', content: [toolResult, { text: 'Who was Beethoven?' }] },
      ],
    };
    const [first] = judgeRequest(spec, body);
    expect(JSON.stringify(fillRejection(spec.rejections[first!.rejection]!, first!.params).body)).toContain(
      'messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn.',
    );
  });
});
