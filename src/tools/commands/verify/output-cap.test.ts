import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { capOutput } from './output-cap.js';
import type { OutputCap } from './live-limits.js';

const anthropic: OutputCap = {
  field: '/max_tokens',
  min: 1,
  required: true,
  budgets: ['/thinking/budget_tokens'],
  minBudget: 1024,
  setup: 2048,
  sources: ['https://example.com'],
};
const gemini: OutputCap = {
  field: '/generationConfig/maxOutputTokens',
  min: 1,
  setup: 1024,
  sources: ['https://example.com'],
};
const responses: OutputCap = { field: '/max_output_tokens', min: 16, setup: 1024, sources: ['https://example.com'] };

describe('capOutput: the smallest cap the provider allows, without changing what a request tests', () => {
  it('a case is lowered to the minimum, or to just above its thinking budget', () => {
    expect(capOutput({ max_tokens: 4096 }, anthropic, 'case')).toEqual({ body: { max_tokens: 1 }, maxTokens: 1 });
    expect(capOutput({ max_tokens: 4096, thinking: { budget_tokens: 2048 } }, anthropic, 'case').maxTokens).toBe(2049);
  });

  it('a case that tests "cap not above the budget", or that omits a required cap, is left as it is', () => {
    const atBudget = { max_tokens: 1024, thinking: { budget_tokens: 1024 } };
    expect(capOutput(atBudget, anthropic, 'case')).toEqual({ body: atBudget, maxTokens: 1024 });
    expect(capOutput({ messages: [] }, anthropic, 'case')).toEqual({ body: { messages: [] }, maxTokens: 0 });
  });

  it('an optional cap is added where a case has none, nested objects created', () => {
    expect(capOutput({ contents: [] }, gemini, 'case')).toEqual({
      body: { contents: [], generationConfig: { maxOutputTokens: 1 } },
      maxTokens: 1,
    });
    expect(capOutput({ input: [] }, responses, 'case').maxTokens).toBe(16);
  });

  it('a scenario call has the engine default budget lowered to the provider least first', () => {
    const built = { max_tokens: 16000, thinking: { type: 'enabled', budget_tokens: 4096 } };
    expect(capOutput(built, anthropic, 'call')).toEqual({
      body: { max_tokens: 1025, thinking: { type: 'enabled', budget_tokens: 1024 } },
      maxTokens: 1025,
    });
  });

  it('a setup call takes the setup cap, above the budget', () => {
    expect(capOutput({ max_tokens: 1 }, anthropic, 'setup').maxTokens).toBe(2048);
    expect(capOutput({ max_tokens: 1, thinking: { budget_tokens: 4000 } }, anthropic, 'setup').maxTokens).toBe(4001);
  });

  test('a case cap is never raised, stays at the minimum or above, and above any budget it was above', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.option(fc.integer({ min: 1024, max: 64_000 }), { nil: undefined }),
        (own, budget) => {
          const body = { max_tokens: own, ...(budget ? { thinking: { budget_tokens: budget } } : {}) };
          const { body: out, maxTokens } = capOutput(body, anthropic, 'case');
          expect(maxTokens).toBe(out.max_tokens);
          expect(maxTokens).toBeLessThanOrEqual(own);
          expect(maxTokens).toBeGreaterThanOrEqual(Math.min(own, anthropic.min));
          if (budget !== undefined && own > budget) expect(maxTokens).toBeGreaterThan(budget);
          if (budget !== undefined && own <= budget) expect(maxTokens).toBe(own);
          expect(body.max_tokens).toBe(own); // the input is not changed
        },
      ),
    );
  });
});
