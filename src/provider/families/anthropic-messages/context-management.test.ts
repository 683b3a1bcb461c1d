import { describe, expect, it } from 'vitest';
import { loadProviderSpec, defaultProvidersDir } from '../../../shared/provider-specs/load-provider-specs.js';
import { judgeRequest } from '../../handlers/judge-request.js';
import { renderAnthropicMessagesAnswer } from './render-answer.js';
import { renderOpenAIResponsesAnswer } from '../openai-responses/render-answer.js';

/**
 * The 2026 context-management surface of Claude's Messages API, as requests name it: thinking bound
 * to its conversation (thinking-binding-controls-2026-08-01) and server compaction (compact_20260112).
 */
describe.each(['anthropic', 'vertex-anthropic', 'foundry-anthropic'])('%s: context management is accepted', (id) => {
  const spec = loadProviderSpec(`${defaultProvidersDir()}/${id}.json`);
  const base = {
    max_tokens: 2048,
    // Vertex names the model in the URL and the API version in the body.
    ...(id === 'vertex-anthropic' ? { anthropic_version: 'vertex-2023-10-16' } : { model: spec.target.model }),
    messages: [{ role: 'user', content: 'hi' }],
  };

  it.each(['error', 'drop_block'])('thinking.block_binding.prefix_mismatch_behavior "%s"', (behavior) => {
    const body = { ...base, thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: behavior } } };
    expect(judgeRequest(spec, body)).toEqual([]);
  });

  it('an unknown behaviour or member under block_binding is still refused', () => {
    for (const binding of [{ prefix_mismatch_behavior: 'ignore' }, { prefix_mismatch_behavior: 'error', x: 1 }]) {
      const body = { ...base, thinking: { type: 'adaptive', block_binding: binding } };
      expect(judgeRequest(spec, body).length).toBeGreaterThan(0);
    }
  });

  it('a compact_20260112 edit with a trigger and pause_after_compaction', () => {
    const body = {
      ...base,
      context_management: {
        edits: [
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50000 }, pause_after_compaction: true },
        ],
      },
    };
    expect(judgeRequest(spec, body)).toEqual([]);
  });
});

describe('server compaction in the Anthropic and Responses mocks', () => {
  const anthropic = loadProviderSpec(`${defaultProvidersDir()}/anthropic.json`);
  const openai = loadProviderSpec(`${defaultProvidersDir()}/openai-responses.json`);
  const claudeAnswer = renderAnthropicMessagesAnswer(
    { compaction: 'Summary of the earlier turns.', content: 'Continuing.', reasoning: 'Go on.' },
    { spec: anthropic, call: 2, scenario: 'compaction-test' },
  ).body as { content: Record<string, unknown>[] };
  const claudeBody = (block: Record<string, unknown>, before: Record<string, unknown>[] = []) => ({
    model: anthropic.target.model,
    max_tokens: 2048,
    messages: [
      { role: 'user', content: 'long task' },
      ...before,
      { role: 'assistant', content: [block, ...claudeAnswer.content.slice(1)] },
      { role: 'user', content: 'next' },
    ],
  });

  it('issues a compaction block first, and only when a live request asks for compaction', () => {
    expect(claudeAnswer.content[0]).toMatchObject({ type: 'compaction', content: 'Summary of the earlier turns.' });
    const unasked = renderAnthropicMessagesAnswer(
      { compaction: 'S', content: 'C' },
      { spec: anthropic, call: 0, scenario: 't', request: { messages: [] } },
    ).body as { content: { type: string }[] };
    expect(unasked.content.map((b) => b.type)).toEqual(['text']);
    const paused = renderAnthropicMessagesAnswer(
      { compaction: 'S', content: 'C' },
      {
        spec: anthropic,
        call: 0,
        scenario: 't',
        request: { context_management: { edits: [{ type: 'compact_20260112', pause_after_compaction: true }] } },
      },
    ).body as { content: { type: string }[]; stop_reason: string };
    expect(paused.content.map((b) => b.type)).toEqual(['compaction']);
    expect(paused.stop_reason).toBe('compaction');
  });

  it('takes the block back verbatim, refuses an edited one, and judges nothing before it', () => {
    const block = claudeAnswer.content[0]!;
    expect(judgeRequest(anthropic, claudeBody(block))).toEqual([]);
    const edited = judgeRequest(
      anthropic,
      claudeBody({ ...block, encrypted_content: `${String(block.encrypted_content)}x` }),
    );
    expect(edited.map((f) => f.rejection)).toEqual(['compaction-invalid']);
    // A forged thinking block before the compaction block is dropped by the API, so it is not judged.
    const forged = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'x', signature: 'forged' },
        { type: 'text', text: 'y' },
      ],
    };
    expect(judgeRequest(anthropic, claudeBody(block, [forged, { role: 'user', content: 'go on' }]))).toEqual([]);
  });

  it('Responses: a compaction item goes back verbatim; another provider’s or an edited one is refused', () => {
    const answer = renderOpenAIResponsesAnswer(
      { compaction: 'Summary.', content: 'Continuing.' },
      { spec: openai, call: 1, scenario: 'compaction-test' },
    ).body as { output: Record<string, unknown>[] };
    const item = answer.output[0]!;
    expect(item.type).toBe('compaction');
    const body = (it: Record<string, unknown>) => ({
      model: openai.target.model,
      store: false,
      input: [{ role: 'user', content: 'long task' }, it, ...answer.output.slice(1), { role: 'user', content: 'next' }],
    });
    expect(judgeRequest(openai, body(item))).toEqual([]);
    const edited = judgeRequest(openai, body({ ...item, encrypted_content: 'A' + String(item.encrypted_content) }));
    expect(edited.map((f) => f.rejection)).toEqual(['compaction-invalid']);
    const xai = loadProviderSpec(`${defaultProvidersDir()}/xai-responses.json`);
    expect(judgeRequest(xai, { ...body(item), model: xai.target.model }).map((f) => f.rejection)).toContain(
      'compaction-invalid',
    );
  });
});
