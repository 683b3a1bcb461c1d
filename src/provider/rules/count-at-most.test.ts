import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { MessageRule } from '../../shared/provider-specs/provider-spec.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { fillRejection } from '../handlers/fill-rejection.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { atMostFindings } from './count-at-most.js';

const specs = new Map(loadProviderSpecs().map((s) => [s.id, s]));
const answer = (id: string, body: Record<string, unknown>) => {
  const spec = specForModel(specs.get(id)!, String(body.model));
  const [first] = judgeRequest(spec, body);
  return first && JSON.stringify(fillRejection(spec.rejections[first.rejection]!, first.params).body);
};
const cached = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } });

describe('a cap over what a body holds', () => {
  const rule: MessageRule = {
    rejection: 'r',
    atMost: { paths: ['system.*.cache_control', 'messages.*.content.*.cache_control'], max: 4 },
  };

  it('counts across every path, and names the first one past the cap', () => {
    const body = (n: number) => ({
      system: Array.from({ length: Math.min(n, 3) }, (_, i) => cached(`s${i}`)),
      messages: [{ role: 'user', content: Array.from({ length: Math.max(n - 3, 0) }, (_, i) => cached(`m${i}`)) }],
    });
    expect(atMostFindings(rule.atMost!, rule, body(4))).toEqual([]);
    expect(atMostFindings(rule.atMost!, rule, body(6))).toMatchObject([
      { params: { count: 6, max: 4, path: 'messages.0.content.1.cache_control' } },
    ]);
  });

  it('with equals, counts only the values equal to it (one system message)', () => {
    const one: MessageRule = { rejection: 'r', atMost: { paths: ['messages.*.role'], equals: 'system', max: 1 } };
    const roles = (...r: string[]) => ({ messages: r.map((role) => ({ role })) });
    expect(atMostFindings(one.atMost!, one, roles('system', 'user', 'assistant', 'user'))).toEqual([]);
    expect(atMostFindings(one.atMost!, one, roles('system', 'system', 'user'))).toMatchObject([
      { params: { count: 2 } },
    ]);
  });

  it('Anthropic refuses a fifth cache breakpoint; MiniMax a second system message', () => {
    const base = { model: 'claude-sonnet-4-5', max_tokens: 1024 };
    const four = {
      ...base,
      system: [cached('a'), cached('b'), cached('c')],
      messages: [{ role: 'user', content: [cached('hi')] }],
    };
    expect(answer('anthropic', four)).toBeUndefined();
    expect(answer('anthropic', { ...four, system: [...four.system, cached('d')] })).toContain(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    const system = (content: string) => ({ role: 'system', content });
    expect(
      answer('minimax', {
        model: 'MiniMax-M2.5',
        messages: [system('a'), system('b'), { role: 'user', content: 'hi' }],
      }),
    ).toContain('invalid params, invalid chat setting (2013)');
  });
});
