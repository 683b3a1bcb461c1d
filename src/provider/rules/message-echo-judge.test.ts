import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import type { Finding } from '../../shared/findings/finding.js';
import { judgeRequest } from '../handlers/judge-request.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const judge = (id: string, body: Record<string, unknown>): Finding[] =>
  judgeRequest(specForModel(specs.get(id)!, String(body.model)), body);

const call = { id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } };
const toolTurn = (model: string, extra: Record<string, unknown> = {}, body: Record<string, unknown> = {}) => ({
  model,
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'Read README.md' },
    { role: 'assistant', content: '', tool_calls: [call], ...extra },
    { role: 'tool', tool_call_id: 'c1', content: '# Title' },
  ],
  ...body,
});

describe('DeepSeek’s must-echo rule, per model and mode', () => {
  it('holds in thinking mode only: thinking disabled and deepseek-chat carry no echo rule', () => {
    expect(judge('deepseek', toolTurn('deepseek-v4-flash'))[0]).toMatchObject({
      rule: 'must-echo',
      params: { index: 2 },
    });
    expect(judge('deepseek', toolTurn('deepseek-v4-flash', {}, { thinking: { type: 'disabled' } }))).toEqual([]);
    expect(judge('deepseek', toolTurn('deepseek-chat'))).toEqual([]);
  });

  it('answers each model generation in its own wording', () => {
    expect(judge('deepseek', toolTurn('deepseek-v4-pro'))[0]?.rejection).toBe('reasoning-content-not-passed-back');
    expect(judge('deepseek', toolTurn('deepseek-v3.2'))[0]).toMatchObject({
      rejection: 'missing-reasoning-content-field',
      params: { index: 2 },
    });
  });

  it('takes "" on V4 Flash and deepseek-reasoner, refuses it on V4 Pro without a contest', () => {
    for (const model of ['deepseek-v4-flash', 'deepseek-reasoner'])
      expect(judge('deepseek', toolTurn(model, { reasoning_content: '' }))).toEqual([]);
    const [empty] = judge('deepseek', toolTurn('deepseek-v4-pro', { reasoning_content: '' }));
    expect(empty).toMatchObject({ rule: 'must-echo', rejection: 'reasoning-content-not-passed-back' });
    expect(empty?.contested).toBeUndefined();
    expect(judge('deepseek', toolTurn('deepseek-v4-pro', { reasoning_content: ' ' }))).toEqual([]);
  });

  it('refuses a current turn’s plain answer without reasoning as a contested finding citing both sides', () => {
    const body = toolTurn('deepseek-v4-flash', { reasoning_content: 'Read it.' });
    (body.messages as unknown[]).push({ role: 'assistant', content: 'It is a title.' });
    const [plain] = judge('deepseek', body);
    expect(plain).toMatchObject({ contested: true, params: { index: 4 } });
    // An undisputed violation is answered before a contested one.
    const both = toolTurn('deepseek-v4-flash');
    (both.messages as unknown[]).push({ role: 'assistant', content: 'done' });
    expect(judge('deepseek', both).map((f) => Boolean(f.contested))).toEqual([false, true]);
  });

  it('answers bodies it cannot deserialize in serde’s words', () => {
    expect(judge('deepseek', { model: 'deepseek-chat', prompt: 'x' })[0]).toMatchObject({
      rejection: 'missing-field',
      params: { field: 'messages' },
    });
    const parts = toolTurn('deepseek-v4-flash', { reasoning_content: 'r' });
    (parts.messages as Array<Record<string, unknown>>)[3]!.content = [{ type: 'text', text: '# Title' }];
    expect(judge('deepseek', parts)[0]).toMatchObject({ rejection: 'content-not-a-string', params: { index: 3 } });
  });
});

describe('per-model rules within one provider', () => {
  it('Groq refuses messages[].reasoning only on models without reasoning', () => {
    const body = (model: string) => ({
      model,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', reasoning: 'greet' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(judge('groq', body('openai/gpt-oss-120b'))).toEqual([]);
    expect(judge('groq', body('moonshotai/kimi-k2-instruct'))[0]).toMatchObject({
      rejection: 'reasoning-not-supported',
      params: { index: 1 },
    });
  });

  it('Cerebras takes messages[].reasoning', () => {
    expect(
      judge('cerebras', {
        model: 'gpt-oss-120b',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello', reasoning: 'greet' },
          { role: 'user', content: 'again' },
        ],
      }),
    ).toEqual([]);
  });
});

describe('contested rejections', () => {
  it('make every finding answered with them contested, citing both sides', () => {
    const spec = structuredClone(specForModel(specs.get('deepseek')!, 'deepseek-v4-flash'));
    spec.rejections['reasoning-content-not-passed-back']!.contested = {
      notes: 'disputed',
      sources: ['https://example.org/other-side'],
    };
    const [finding] = judgeRequest(spec, toolTurn('deepseek-v4-flash'));
    expect(finding).toMatchObject({ contested: true });
    expect(finding?.sources).toContain('https://example.org/other-side');
  });
});
