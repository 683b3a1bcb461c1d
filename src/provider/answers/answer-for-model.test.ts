import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { catalogueEntry, catalogueModels } from '../../shared/provider-specs/model-catalogue.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import type { CatalogueEntry } from '../../shared/provider-specs/provider-spec.js';
import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { renderOpenAIChatAnswer } from '../families/openai-chat/render-answer.js';
import { renderAnthropicMessagesAnswer } from '../families/anthropic-messages/render-answer.js';
import { renderGeminiAnswer } from '../families/gemini/render-answer.js';
import { answerForModel, answerReasons, requestAsksReasoning } from './answer-for-model.js';

const specs = loadProviderSpecs();
const spec = (id: string) => specs.find((s) => s.id === id)!;
const scripted: ScriptedAnswer = {
  content: null,
  reasoning: 'The user wants the weather; call the tool.',
  tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
};
const TOOLS = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];

/** A chat-completions answer to `model` on `specId`, shaped by the catalogue as follow mode shapes it. */
function chatAnswer(specId: string, model: string, request?: Record<string, unknown>) {
  const shaped = answerForModel(spec(specId), model, scripted, request);
  const { body } = renderOpenAIChatAnswer(shaped.answer, { spec: shaped.spec, call: 0, scenario: 'catalogue', model });
  return (body as { choices: Array<{ message: Record<string, unknown> }> }).choices[0]!.message;
}

describe('a model the catalogue says never reasons answers without reasoning', () => {
  it("Groq's Kimi K2 Instruct: no message.reasoning, and the next turn replaying the answer is accepted", () => {
    const model = 'moonshotai/kimi-k2-instruct';
    const message = chatAnswer('groq', model);
    expect(message).not.toHaveProperty('reasoning');
    const next = {
      model,
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        message,
        { role: 'tool', tool_call_id: 'call_0', content: '{"temp":12}' },
      ],
    };
    expect(judgeRequest(specForModel(spec('groq'), model), next)).toEqual([]);
  });

  it("Groq's gpt-oss still answers with message.reasoning", () => {
    expect(chatAnswer('groq', 'openai/gpt-oss-120b').reasoning).toBe(scripted.reasoning);
  });

  it('every never-reasoning model of every catalogue loses the reasoning and any redaction of it', () => {
    for (const s of specs)
      for (const entry of catalogueModels(s).filter((e) => e.reasoning === 'never')) {
        const shaped = answerForModel(s, entry.id, { ...scripted, redacted: true });
        expect(shaped.answer, `${s.id} ${entry.id}`).toEqual({ content: null, tool_calls: scripted.tool_calls });
      }
  });
});

describe("a model's answer holds the carriers the catalogue lists for it", () => {
  it('Grok 4.3 on chat completions reasons without returning it; grok-3-mini returns reasoning_content', () => {
    expect(chatAnswer('xai', 'grok-4.3')).not.toHaveProperty('reasoning_content');
    expect(chatAnswer('xai', 'grok-3-mini').reasoning_content).toBe(scripted.reasoning);
  });

  test("a model no catalogue names is answered with the spec's own carriers (tomorrow's model keeps working)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...specs.filter((s) => s.family === 'openai-chat')),
        fc.string({ minLength: 1 }),
        (s, model) => {
          fc.pre(catalogueEntry(s, model) === undefined);
          const shaped = answerForModel(s, model, scripted);
          expect(shaped.spec).toBe(s);
          expect(shaped.answer).toBe(scripted);
        },
      ),
    );
  });
});

describe('an optional model reasons as the request says, else by its documented default', () => {
  const render = (model: string, request: Record<string, unknown>) => {
    const shaped = answerForModel(spec('anthropic'), model, scripted, request);
    const { body } = renderAnthropicMessagesAnswer(shaped.answer, { spec: shaped.spec, call: 0, scenario: 'd', model });
    return (body as { content: Array<{ type: string }> }).content.map((b) => b.type);
  };
  const ask = { model: 'x', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] };

  it('Claude Sonnet 4.5 thinks only when asked; Opus 5 thinks by default; Fable 5.1 always', () => {
    expect(render('claude-sonnet-4-5', ask)).toEqual(['tool_use']);
    expect(render('claude-sonnet-4-5', { ...ask, thinking: { type: 'enabled', budget_tokens: 1024 } })).toEqual([
      'thinking',
      'tool_use',
    ]);
    expect(render('claude-opus-5', ask)).toEqual(['thinking', 'tool_use']);
    expect(render('claude-opus-5', { ...ask, thinking: { type: 'disabled' } })).toEqual(['tool_use']);
    expect(render('claude-fable-5-1', { ...ask, thinking: { type: 'disabled' } })).toEqual(['thinking', 'tool_use']);
  });

  it('DeepSeek V4 thinks by default and not with thinking disabled', () => {
    expect(chatAnswer('deepseek', 'deepseek-v4-pro', { messages: [] }).reasoning_content).toBe(scripted.reasoning);
    expect(chatAnswer('deepseek', 'deepseek-v4-pro', { thinking: { type: 'disabled' } })).not.toHaveProperty(
      'reasoning_content',
    );
  });
});

describe('requestAsksReasoning reads each family’s own switch', () => {
  it.each([
    ['anthropic-messages', { thinking: { type: 'enabled', budget_tokens: 1024 } }, true],
    ['anthropic-messages', { thinking: { type: 'adaptive' } }, true],
    ['anthropic-messages', { thinking: { type: 'disabled' } }, false],
    ['anthropic-messages', {}, undefined],
    ['bedrock-converse', { additionalModelRequestFields: { thinking: { type: 'disabled' } } }, false],
    ['gemini', { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }, false],
    ['gemini', { generationConfig: { thinkingConfig: { thinkingBudget: 512 } } }, true],
    ['gemini', { generationConfig: { thinkingConfig: { thinkingLevel: 'low' } } }, true],
    ['gemini', { generationConfig: {} }, undefined],
    ['openai-responses', { reasoning: { effort: 'none' } }, false],
    ['openai-responses', { reasoning: { effort: 'low' } }, true],
    ['openai-responses', { reasoning: { summary: 'auto' } }, undefined],
    ['openai-chat', { reasoning_effort: 'none' }, false],
    ['openai-chat', { reasoning_effort: 'high' }, true],
    ['openai-chat', { thinking: { type: 'disabled' } }, false],
    ['openai-chat', { enable_thinking: false }, false],
    ['openai-chat', { reasoning: { enabled: false } }, false],
    ['openai-chat', { reasoning: { effort: 'none' } }, false],
    ['openai-chat', { reasoning: { enabled: true } }, true],
    ['openai-chat', { messages: [] }, undefined],
  ] as const)('%s %j -> %s', (family, body, expected) => {
    expect(requestAsksReasoning(family, body)).toBe(expected);
  });
});

describe('answerReasons', () => {
  const entry = (reasoning: CatalogueEntry['reasoning'], reasoningByDefault?: boolean): CatalogueEntry => ({
    id: 'm',
    reasoning,
    ...(reasoningByDefault === undefined ? {} : { reasoningByDefault }),
    carriers: [],
    tools: true,
    structuredOutput: 'unknown',
    limits: {},
    sources: ['https://example.com'],
    observed: '2026-12-07',
  });
  test('never is never, always is always, optional follows the request then the default, unknown reasons', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(true, false, undefined),
        fc.constantFrom(true, false, undefined),
        (asked, byDefault) => {
          expect(answerReasons(entry('never'), asked)).toBe(false);
          expect(answerReasons(entry('always'), asked)).toBe(true);
          expect(answerReasons(entry('optional', byDefault), asked)).toBe(asked ?? byDefault ?? true);
          expect(answerReasons(undefined, asked)).toBe(true);
        },
      ),
    );
  });
});

describe('Gemini returns thought summaries only when includeThoughts is true (its default is false)', () => {
  const gemini = spec('gemini');
  const render = (request: Record<string, unknown>) => {
    const shaped = answerForModel(gemini, 'gemini-3-pro-preview', scripted, request);
    const { body } = renderGeminiAnswer(shaped.answer, { spec: shaped.spec, call: 0, scenario: 'g', model: 'x' });
    return (body as { candidates: Array<{ content: { parts: Array<Record<string, unknown>> } }> }).candidates[0]!
      .content.parts;
  };
  const ask = { contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }] };

  it('without includeThoughts: no thought part, the signature still on the first function call', () => {
    const parts = render(ask);
    expect(parts.some((p) => p.thought === true)).toBe(false);
    expect(parts[0]).toHaveProperty('thoughtSignature');
  });

  it('with includeThoughts true: the thought summary first', () => {
    const parts = render({ ...ask, generationConfig: { thinkingConfig: { includeThoughts: true } } });
    expect(parts[0]).toEqual({ text: scripted.reasoning, thought: true });
  });

  it('a synthesized fixture (no request) keeps its thought part', () => {
    expect(answerForModel(gemini, 'gemini-3-pro-preview', scripted).answer).toBe(scripted);
  });
});
