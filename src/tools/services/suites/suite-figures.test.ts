import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { answerRenderers } from '../../../provider/answers/answer-renderers.js';
import type { AnswerRenderer } from '../../../provider/answers/answer-renderer.js';
import { suiteFigures } from './suite-figures.js';

/** The report's figures for other projects' published schemas: counted from the renderers, departures named. */
const specs = loadProviderSpecs();

describe('suite figures', () => {
  it('count every answer kind of the Responses mock against the Open Responses schema', () => {
    const [figures, ...others] = suiteFigures(specs);
    expect(others).toEqual([]);
    expect(figures).toMatchObject({ schema: 'open-responses', specs: ['openai-responses'], departures: [] });
    expect(figures!.bodies.checked).toBeGreaterThanOrEqual(15);
    expect(figures!.bodies.conforming).toBe(figures!.bodies.checked);
    expect(figures!.events.checked).toBeGreaterThan(figures!.bodies.checked * 5);
    expect(figures!.events.conforming).toBe(figures!.events.checked);
  });

  it('count a departure where the rendered answer drops a member the schema requires', () => {
    const responses = answerRenderers['openai-responses']!;
    const withoutPenalty: AnswerRenderer = (answer, context) => {
      const rendered = responses(answer, context);
      const { presence_penalty: _dropped, ...body } = rendered.body as Record<string, unknown>;
      return { ...rendered, body };
    };
    const [figures] = suiteFigures(specs, { ...answerRenderers, 'openai-responses': withoutPenalty });
    expect(figures!.bodies.conforming).toBe(0);
    expect(figures!.events.conforming).toBe(figures!.events.checked);
    expect(figures!.departures[0]).toMatch(
      /^openai-responses text: body \/ missing required property "presence_penalty"$/,
    );
  });
});
