import { describe, expect, it } from 'vitest';
import { judgeRequest, refusesRequest, type ProviderSpec } from '../src/index.js';
import { loadProviderSpecs } from '../src/shared/provider-specs/load-provider-specs.js';

/**
 * Issue 40: the library's judgeRequest returned contested findings that the mock answers leniently, while its
 * documentation said an empty list means "accepted"; and it judged with the rules every model shares, so a rule
 * scoped to the body's model never fired. Each finding now says whether the mock refuses it (`lenient`), and the
 * body's model picks the rule set, as in the mock.
 */
const ask = { role: 'user', content: 'query the database' };

describe('judgeRequest (library)', () => {
  /**
   * The bundled deepseek spec with every rejection marked contested, whatever today's data says: a body forcing a
   * tool on deepseek-v4-flash, which thinks by default, breaks a forbid (a judge past the schema, where contested
   * marks apply).
   */
  const toolsBody = {
    model: 'deepseek-v4-flash',
    messages: [ask],
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
    tool_choice: 'required',
  };
  const contestedDeepseek = (): ProviderSpec => {
    const spec = structuredClone(loadProviderSpecs().find((s) => s.id === 'deepseek')!);
    for (const rejection of Object.values(spec.rejections))
      rejection.contested = { notes: 'sources disagree', sources: ['https://example.org/a'] };
    return spec;
  };

  it('marks a contested finding the mock answers leniently, so the request is accepted with a warning', () => {
    const findings = judgeRequest(contestedDeepseek(), toolsBody);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.contested === true && f.lenient === true)).toBe(true);
    expect(refusesRequest(findings)).toBe(false);
  });

  it('under strict, the same contested finding refuses, as `--strict` does', () => {
    const findings = judgeRequest(contestedDeepseek(), toolsBody, { strict: true });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]!.contested).toBe(true);
    expect(findings[0]!.lenient).toBeUndefined();
    expect(refusesRequest(findings)).toBe(true);
  });

  it('an undisputed finding is never lenient: the mock refuses', () => {
    const findings = judgeRequest('groq', { model: 'qwen/qwen3-32b', messages: [ask], store: true });
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]!.contested).toBeUndefined();
    expect(findings[0]!.lenient).toBeUndefined();
    expect(refusesRequest(findings)).toBe(true);
  });

  it('an accepted body has no finding', () => {
    const findings = judgeRequest('deepseek', { model: 'deepseek-chat', messages: [ask] });
    expect(findings).toEqual([]);
    expect(refusesRequest(findings)).toBe(false);
  });

  it("judges with the rule set of the body's model, as the mock does", () => {
    // OpenAI's reasoning models take only the default temperature; other chat models take 0.
    const body = (model: string) => ({ model, messages: [{ role: 'user', content: 'hi' }], temperature: 0 });
    expect(refusesRequest(judgeRequest('openai', body('o1-mini')))).toBe(true);
    expect(judgeRequest('openai', body('gpt-4o'))).toEqual([]);
  });

  it('takes the model from the options when the body names none (Gemini names it in the path)', () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    expect(judgeRequest('gemini', body, { model: 'gemini-2.5-flash' })).toEqual([]);
  });
});
