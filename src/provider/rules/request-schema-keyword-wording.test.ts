import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeRequestSchema } from './request-schema-judge.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const spec = (id: string) => specs.get(id)!;

/** The answer the mock gives for the first schema finding: status and the provider's message. */
function answer(s: ProviderSpec, body: unknown): { status: number; message: string; param?: unknown } {
  const [first] = judgeRequestSchema(s, body);
  if (!first) return { status: 200, message: '' };
  const filled = fillRejection(s.rejections[first.rejection]!, first.params);
  const error = (filled.body as { error: { message: unknown; param?: unknown } | string }).error;
  return typeof error === 'object'
    ? { status: filled.status, message: String(error.message), param: error.param }
    : { status: filled.status, message: JSON.stringify(filled.body) };
}

const chat = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model: 'gpt-5', messages, ...extra });

describe('schema failures answered in the provider’s words, per failure class', () => {
  it('OpenAI: a value outside an enum, with the supported values as OpenAI lists them', () => {
    expect(answer(spec('openai'), chat([{ role: 'robot', content: 'hi' }]))).toEqual({
      status: 400,
      message:
        "Invalid value: 'robot'. Supported values are: 'developer', 'system', 'user', 'assistant', 'tool', and 'function'.",
      param: 'messages[0].role',
    });
    // In the order the API lists them (openai/codex#7845), which the overlay responses-reasoning-summary-order keeps.
    expect(
      answer(spec('openai-responses'), { model: 'gpt-5', input: 'hi', reasoning: { summary: 'brief' } }).message,
    ).toBe("Invalid value: 'brief'. Supported values are: 'concise', 'detailed', and 'auto'.");
  });

  it('OpenAI: a missing member below the top level, by its path', () => {
    expect(
      answer(
        spec('openai'),
        chat([
          { role: 'user', content: 'hi' },
          { role: 'tool', content: 'x' },
        ]),
      ),
    ).toMatchObject({ status: 400, message: "Missing required parameter: 'messages[1].tool_call_id'." });
    expect(answer(spec('openai-responses'), { input: 'hi' }).message).toBe("Missing required parameter: 'model'.");
  });

  it('OpenAI: one expected type is worded; a union of expected types falls back to the generic answer', () => {
    expect(
      answer(spec('openai'), chat([{ role: 'user', content: 'hi' }], { stream_options: { include_usage: 'yes' } })),
    ).toMatchObject({
      message: "Invalid type for 'stream_options.include_usage': expected a boolean, but got a string instead.",
    });
    // content takes a string or an array of parts: OpenAI's wording for that union is not reproduced.
    expect(answer(spec('openai'), chat([{ role: 'user', content: 5 }])).message).toMatch(/^reasoning-replay mock:/);
  });

  it('Gemini: an enum value in Google’s notation, with the enum’s type from the pinned definition', () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [
        {
          functionDeclarations: [
            { name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'BANANA' } } } },
          ],
        },
      ],
    };
    expect(answer(spec('gemini'), body)).toEqual({
      status: 400,
      message:
        'Invalid value at \'tools[0].function_declarations[0].parameters.properties[1].value.type\' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "BANANA"',
      param: undefined,
    });
  });

  it('Anthropic: a missing member named by its tagged path, as pydantic reports it', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] },
      ],
    };
    expect(answer(spec('anthropic'), body)).toMatchObject({
      status: 400,
      message: 'messages.1.content.0.tool_use.id: Field required',
    });
  });

  it('Anthropic: a member the thinking type does not take, named by the type as pydantic reports it', () => {
    const body = (thinking: Record<string, unknown>) => ({
      model: 'claude-opus-4-6',
      max_tokens: 32000,
      thinking,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer(spec('anthropic'), body({ type: 'adaptive', budget_tokens: 16000 }))).toMatchObject({
      status: 400,
      message: 'thinking.adaptive.budget_tokens: Extra inputs are not permitted',
    });
    expect(answer(spec('anthropic'), body({ type: 'adaptive', effort: 'low' }))).toMatchObject({
      message: 'thinking.adaptive.effort: Extra inputs are not permitted',
    });
  });

  it('a provider without a worded class keeps its status: Mistral answers schema failures with 422', () => {
    expect(answer(spec('mistral'), chat([{ role: 'robot', content: 'hi' }]))).toMatchObject({ status: 422 });
  });
});
