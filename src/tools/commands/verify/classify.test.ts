import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { MockOutcome } from '../../services/real-world-cases/replay-case.js';
import { compareWithLive } from './classify.js';
import { namedRule } from './named-rule.js';

const all = loadProviderSpecs();
const specs = new Map(all.map((s) => [s.id, s]));
const spec = (id: string) => specs.get(id)!;

const rejected = (status: number, rejection: string, text: string): MockOutcome => ({
  kind: 'rejected',
  status,
  text,
  findings: [{ rule: 'r', rejection, params: {} }],
});
const accepted: MockOutcome = { kind: 'accepted', status: 200, findings: [] };

describe('namedRule: the rule a live wording names', () => {
  it('matches a rejection sentence with its placeholders filled by anything', () => {
    const text = 'messages.3.content.0: Invalid `signature` in `thinking` block';
    expect(namedRule(text, spec('anthropic'), specs)).toEqual({
      id: 'invalid-signature',
      spec: 'anthropic',
      status: 400,
    });
  });

  it('a gateway names its upstream rule passed through', () => {
    const text =
      'Error from provider (DeepSeek): The `reasoning_content` in the thinking mode must be passed back to the API.';
    expect(namedRule(text, spec('openrouter'), specs)).toMatchObject({
      id: 'reasoning-content-not-passed-back',
      spec: 'deepseek',
    });
  });

  it('an error type alone names no rule', () => {
    expect(namedRule('invalid_request_error', spec('deepseek'), specs)).toBeUndefined();
  });
});

describe('compareWithLive: the four categories', () => {
  const ds = spec('deepseek');
  const wording = 'The `reasoning_content` in the thinking mode must be passed back to the API.';
  const live = (status: number, text = '') => ({ status, text });

  it('both accept: agrees; mock refuses what live takes: too strict; the other way: too lenient', () => {
    expect(compareWithLive(accepted, live(200), ds, specs)).toMatchObject({ category: 'agrees', rule: 'accepted' });
    expect(
      compareWithLive(rejected(400, 'reasoning-content-not-passed-back', wording), live(200), ds, specs),
    ).toMatchObject({
      category: 'mock-too-strict',
      rule: 'reasoning-content-not-passed-back',
    });
    expect(compareWithLive(accepted, live(400, wording), ds, specs)).toMatchObject({
      category: 'mock-too-lenient',
      rule: 'reasoning-content-not-passed-back',
    });
    expect(compareWithLive(accepted, live(400, 'something new'), ds, specs)).toMatchObject({
      category: 'mock-too-lenient',
      rule: 'unnamed',
    });
  });

  it('both refuse: agrees on the same status and rule; else the wording changed, saying how', () => {
    const mock = rejected(400, 'reasoning-content-not-passed-back', wording);
    expect(compareWithLive(mock, live(400, wording), ds, specs)).toMatchObject({ category: 'agrees' });
    expect(compareWithLive(mock, live(422, wording), ds, specs)).toMatchObject({
      category: 'wording-changed',
      detail: 'status 422 live, 400 mock; the same rule (reasoning-content-not-passed-back)',
    });
    expect(compareWithLive(mock, live(400, 'reasoning is required'), ds, specs)).toMatchObject({
      category: 'wording-changed',
      detail: "the live wording names no rule of deepseek's spec",
    });
  });

  it('a live 5xx, or a mock that cannot answer, is inconclusive, never a drift', () => {
    expect(compareWithLive(accepted, live(503, 'overloaded'), ds, specs)).toMatchObject({ kind: 'inconclusive' });
    expect(compareWithLive({ kind: 'unclaimed', url: 'u' }, live(200), ds, specs)).toMatchObject({
      kind: 'inconclusive',
    });
  });
});
