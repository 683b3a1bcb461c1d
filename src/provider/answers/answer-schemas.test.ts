import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';
import { answerRenderers } from './answer-renderers.js';
import { answerProblems, answerSchemasFor, loadAnswerSchemas } from './answer-schemas.js';
import type { RenderContext } from './answer-renderer.js';
import { ANSWER_KINDS, toolCall as call } from './answer-kinds.js';

/**
 * Every answer a mock renders, for every provider spec, streamed and not, satisfies the answer schemas distilled from
 * the provider's own published definition (specs/responses/, npm run specs:import): every member the definition marks
 * required is there, with a value of the type it names.
 */
const specs = loadProviderSpecs().filter((s) => answerRenderers[s.family] !== undefined);
// The shared kinds, and Anthropic's redacted thinking, which only this schema check renders.
const KINDS: Record<string, ScriptedAnswer> = {
  ...ANSWER_KINDS,
  'redacted reasoning': { reasoning: 'hidden', redacted: true, content: 'Done.' },
};

/** The request a live client sends, as far as renderers read it (Responses store/include, Anthropic display). */
const LIVE: Record<string, unknown> = { store: true, include: ['reasoning.encrypted_content'] };

const render = (spec: (typeof specs)[number], answer: ScriptedAnswer, context: Partial<RenderContext> = {}) =>
  answerRenderers[spec.family]!(answer, { spec, call: 1, scenario: 'answer-schemas', ...context });

describe('rendered answers against their distilled answer schemas', () => {
  it('every family with a renderer has answer schemas from a definition', () => {
    const missing = [...new Set(specs.filter((s) => !answerSchemasFor(s)).map((s) => s.family))];
    expect(missing).toEqual([]);
  });

  const judged = specs.filter((s) => answerSchemasFor(s));
  describe.each(judged.map((s) => [s.id, s] as const))('%s', (_id, spec) => {
    const schemas = answerSchemasFor(spec)!;
    it.each(Object.entries(KINDS))('%s: body and every stream event conform', (_kind, answer) => {
      expect(answerProblems(render(spec, answer), schemas)).toEqual([]);
      expect(answerProblems(render(spec, answer, { request: LIVE }), schemas)).toEqual([]);
    });
  });

  const scripted: fc.Arbitrary<ScriptedAnswer> = fc
    .record(
      {
        content: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        reasoning: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        redacted: fc.boolean(),
        tool_calls: fc.array(
          fc.record({
            name: fc.stringMatching(/^[a-z_]{1,12}$/),
            args: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.string({ maxLength: 8 }), fc.integer())),
          }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: ['redacted', 'tool_calls'] },
    )
    .map(({ tool_calls, ...rest }) => ({
      ...rest,
      tool_calls: tool_calls.map((t, i) => call(`call_${i}`, t.name, JSON.stringify(t.args))),
    }));

  test('any scripted answer, in any spec, conforms', () => {
    fc.assert(
      fc.property(fc.constantFrom(...judged), scripted, (spec, answer) => {
        expect(answerProblems(render(spec, answer), answerSchemasFor(spec)!)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('the schemas are live: removing any required top-level member of a conforming answer is caught', () => {
    let removed = 0;
    for (const schemas of loadAnswerSchemas().filter((s) => !s.suite)) {
      const spec = judged.find((s) => answerSchemasFor(s) === schemas)!;
      const rendered = render(spec, KINDS['reasoning and a tool call']!);
      for (const member of (schemas.response.required as string[] | undefined) ?? []) {
        const body = { ...(rendered.body as Record<string, unknown>) };
        delete body[member];
        const problems = answerProblems({ body, stream: [] }, schemas);
        expect(problems, `${schemas.id}: ${member}`).toEqual([
          { where: 'body', pointer: '/', problem: `missing required property "${member}"` },
        ]);
        removed++;
      }
    }
    expect(removed).toBeGreaterThan(10);
  });
});
