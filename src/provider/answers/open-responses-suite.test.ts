import { describe, expect, it, test } from 'vitest';
import fc from 'fast-check';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ScriptedAnswer } from '../../shared/scenarios/scenario.js';
import { answerRenderers } from './answer-renderers.js';
import { answerProblems, answerSchemasFor, suiteSchemasFor } from './answer-schemas.js';
import { ANSWER_KINDS as KINDS, toolCall as call } from './answer-kinds.js';

/**
 * OpenAI's Responses mock against another project's published schema of the same API: the Open Responses
 * specification (specs/responses/open-responses.json, distilled by npm run specs:import from its pinned OpenAPI
 * document). The schema is data; these checks are ours. Every answer kind, streamed and not, conforms.
 */
const spec = loadProviderSpecs().find((s) => s.id === 'openai-responses')!;
const [openResponses] = suiteSchemasFor(spec);
const render = (answer: ScriptedAnswer, request: Record<string, unknown> = {}) =>
  answerRenderers[spec.family]!(answer, { spec, call: 1, scenario: 'open-responses', request });
const REQUESTS: Record<string, Record<string, unknown>> = {
  'API defaults': {},
  'stored, with encrypted reasoning': { store: true, include: ['reasoning.encrypted_content'] },
  unstored: { store: false, include: ['reasoning.encrypted_content'] },
  'sampling settings': { temperature: 0.2, top_p: 0.9, presence_penalty: 0.5, frequency_penalty: 0.25 },
};

describe('the Responses mock against the Open Responses schema', () => {
  it('is a suite schema of openai-responses, never its judge', () => {
    expect(openResponses?.schemaSource.definition).toBe('open-responses');
    expect(answerSchemasFor(spec)?.id).toBe('openai-responses');
  });

  describe.each(Object.entries(REQUESTS))('%s', (_name, request) => {
    it.each(Object.entries(KINDS))('%s: the body and every stream event conform', (_kind, answer) => {
      const rendered = render(answer, request);
      expect(rendered.stream.length).toBeGreaterThan(3);
      expect(answerProblems(rendered, openResponses!)).toEqual([]);
    });
  });

  test('any scripted answer conforms', () => {
    fc.assert(
      fc.property(
        fc.record({
          content: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
          reasoning: fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
          calls: fc.array(fc.stringMatching(/^[a-z_]{1,10}$/), { maxLength: 3 }),
        }),
        fc.constantFrom(...Object.values(REQUESTS)),
        ({ calls, ...rest }, request) => {
          const answer = { ...rest, tool_calls: calls.map((n, i) => call(`call_${i}`, n, '{}')) };
          expect(answerProblems(render(answer, request), openResponses!)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the checks are live: a member the schema requires, or a malformed event, is caught', () => {
    const rendered = render(KINDS['reasoning and a tool call']!);
    const required = openResponses!.response.required as string[];
    expect(required).toEqual(expect.arrayContaining(['presence_penalty', 'frequency_penalty', 'completed_at']));
    for (const member of required) {
      const body = { ...(rendered.body as Record<string, unknown>) };
      delete body[member];
      expect(answerProblems({ body, stream: [] }, openResponses!), member).toEqual([
        { where: 'body', pointer: '/', problem: `missing required property "${member}"` },
      ]);
    }
    const stream = rendered.stream.map((e, i) => {
      if (i !== 2) return e;
      const { sequence_number: _dropped, ...data } = JSON.parse(e.data) as Record<string, unknown>;
      return { ...e, data: JSON.stringify(data) };
    });
    expect(answerProblems({ body: rendered.body, stream }, openResponses!).map((p) => p.where)).toEqual(['event 2']);
  });
});
