import { describe, expect, it } from 'vitest';
import { parseSse } from '../../shared/sse/parse-sse.js';
import {
  loadRealCases,
  realTrafficCasesDir,
  type RealCase,
} from '../../tools/services/real-world-cases/recorded-traffic/real-traffic-case.js';
import { answerProblems, answerSchemasFor } from './answer-schemas.js';

/**
 * The answer schemas are no stricter than the real APIs: every real answer recorded by another project
 * (../shared/real-traffic: bodies and streams from OpenAI, Azure, xAI, Anthropic, Gemini, DeepSeek, Groq...) satisfies
 * its family's distilled schema with its overlays. A definition that requires what a real answer lacks must carry an
 * overlay citing that answer (specs/definitions.json `responses`), or this fails.
 */
const dir = realTrafficCasesDir();

/** The provider spec a recording came from, where its answers have schemas of their own (xAI's Responses API). */
const specOf = (c: RealCase) => ({
  id: c.family === 'openai-responses' && /-xai-/.test(c.id) ? 'xai-responses' : '',
  family: c.family,
});

describe('real recorded answers against the distilled answer schemas', () => {
  if (dir === undefined) {
    it.skip('SKIPPED: ../shared/real-traffic/cases is not beside the repo', () => {});
    return;
  }
  const cases = loadRealCases(dir).filter((c) => answerSchemasFor(specOf(c)) !== undefined);
  it('has cases for every judged family but Copilot (whose real answers are Responses-shaped here)', () => {
    expect(new Set(cases.map((c) => c.family))).toEqual(
      new Set(['anthropic-messages', 'bedrock-converse', 'gemini', 'openai-chat', 'openai-responses']),
    );
  });
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const schemas = answerSchemasFor(specOf(c))!;
    const rendered =
      c.kind === 'body' ? { body: c.body, stream: [] } : { body: undefined, stream: parseSse(c.sse ?? '').events };
    const problems = answerProblems(rendered, schemas).filter((p) => !(c.kind === 'stream' && p.where === 'body'));
    expect(problems).toEqual([]);
  });
});
