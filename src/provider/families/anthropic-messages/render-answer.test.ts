import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { defaultProvidersDir, loadProviderSpec } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../../shared/scenarios/scenario.js';
import { verifyMockThinkingSignature } from '../../signing/mock-signature.js';
import { renderAnthropicMessagesAnswer, thinkingOmitted } from './render-answer.js';
import { judgeAnthropicMessages } from './request-rules.js';

const spec = loadProviderSpec(`${defaultProvidersDir()}/anthropic.json`);
const answer: ScriptedAnswer = {
  reasoning: 'Call the calculator for 17*23.',
  tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'bash', arguments: '{"command":"echo 391"}' } }],
};
const asking = (display?: string) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 4096,
  thinking: { type: 'enabled', budget_tokens: 2048, ...(display === undefined ? {} : { display }) },
  messages: [{ role: 'user', content: 'Compute 17*23 with the calculator.' }],
});

type Block = { type: string; thinking?: string; signature?: string };
const render = (model: string, request?: Record<string, unknown>) => {
  const { body, stream } = renderAnthropicMessagesAnswer(answer, {
    spec,
    call: 0,
    scenario: 'display',
    model,
    request,
  });
  return { blocks: (body as { content: Block[] }).content, stream: stream.map((e) => JSON.parse(e.data)) };
};

/** The next request: the rendered assistant turn replayed as received, then its tool result. */
const replay = (blocks: Block[]) => ({
  ...asking(),
  tools: [{ name: 'bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
  messages: [
    ...asking().messages,
    { role: 'assistant', content: blocks },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '391' }] },
  ],
});

describe('display "omitted" in Anthropic answers', () => {
  it('gives empty thinking and a signature for it when the request asks for omitted', () => {
    const { blocks, stream } = render('claude-sonnet-4-5', asking('omitted'));
    expect(blocks[0]).toMatchObject({ type: 'thinking', thinking: '' });
    expect(verifyMockThinkingSignature('', 0, blocks[0]!.signature)).toBe(true);
    // Streamed: no thinking_delta at all, only the signature before the block stops.
    const deltas = stream.filter((e) => e.type === 'content_block_delta' && e.index === 0).map((e) => e.delta.type);
    expect(deltas).toEqual(['signature_delta']);
  });

  it('keeps the text for summarized, also on a model that omits by default', () => {
    expect(render('claude-opus-4-7', asking('summarized')).blocks[0]!.thinking).toBe(answer.reasoning);
  });

  it('follows the model default when the request says nothing', () => {
    expect(render('claude-opus-4-7', asking()).blocks[0]!.thinking).toBe('');
    expect(render('claude-sonnet-4-5', asking()).blocks[0]!.thinking).toBe(answer.reasoning);
    // Synthesized fixtures have no request: the target model's default decides.
    expect(render('claude-opus-4-8').blocks[0]!.thinking).toBe('');
  });

  it('never omits for a spec without a thinkingDisplay', () => {
    const plain: ProviderSpec = { ...spec, response: { carriers: spec.response.carriers } };
    expect(thinkingOmitted(plain, 'claude-opus-4-7', asking('omitted'))).toBe(false);
  });

  it('accepts the omitted block replayed verbatim, and refuses it with the hidden text filled in', () => {
    const { blocks } = render('claude-sonnet-4-5', asking('omitted'));
    expect(judgeAnthropicMessages(spec, replay(blocks))).toEqual([]);
    const filled = blocks.map((b) => (b.type === 'thinking' ? { ...b, thinking: answer.reasoning } : b));
    expect(judgeAnthropicMessages(spec, replay(filled)).map((f) => f.rule)).toContain('signatures-verbatim');
  });

  test('shows the text exactly when display is summarized, or absent on a model that shows by default', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('omitted', 'summarized', undefined),
        fc.constantFrom('claude-opus-4-7', 'claude-haiku-4-5'),
        (display, model) => {
          const shown = render(model, asking(display)).blocks[0]!.thinking === answer.reasoning;
          expect(shown).toBe(display === 'summarized' || (display === undefined && !model.includes('opus-4-7')));
        },
      ),
    );
  });
});

describe('the model Anthropic answers names', () => {
  test('is the model the client asked for, in the body and in message_start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('claude-opus-5', 'claude-fable-5-1', 'claude-sonnet-4-5'),
        fc.boolean(),
        (model, withRequest) => {
          const { body, stream } = renderAnthropicMessagesAnswer(answer, {
            spec,
            call: 0,
            scenario: 'model',
            model,
            ...(withRequest ? { request: asking() } : {}),
          });
          expect((body as { model: string }).model).toBe(model);
          expect(JSON.parse(stream[0]!.data).message.model).toBe(model);
        },
      ),
    );
  });

  it("is the spec's target model when no client asked (synthesized fixtures)", () => {
    const { body } = renderAnthropicMessagesAnswer(answer, { spec, call: 0, scenario: 'model' });
    expect((body as { model: string }).model).toBe(spec.target.model);
  });
});
