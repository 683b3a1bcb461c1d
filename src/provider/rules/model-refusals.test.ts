import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ModelRefusal, ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { judgeModelRefusals } from './model-refusals.js';

const spec = (refuses: ModelRefusal[]) => ({ models: { refuses } }) as unknown as ProviderSpec;
const entry = (extra: Partial<ModelRefusal>): ModelRefusal => ({
  match: '^(old-a|old-b)$',
  label: 'retired',
  rejection: 'model-retired',
  sources: ['https://example.com/deprecations'],
  ...extra,
});

describe('judgeModelRefusals', () => {
  it('refuses a listed id with the entry rejection and the model as a parameter', () => {
    const [finding] = judgeModelRefusals(spec([entry({ since: '2025-04' })]), 'old-b', {}, false);
    expect(finding).toMatchObject({ rejection: 'model-retired', params: { model: 'old-b' }, rule: 'provider-accepts' });
    expect(finding!.detail).toContain('since 2025-04');
  });

  it('serves every id no entry names, however plausible (a model released after the data)', () => {
    const refusals = spec([entry({})]);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9.:/-]{1,30}$/).filter((m) => m !== 'old-a' && m !== 'old-b'),
        (model) => judgeModelRefusals(refusals, model, {}, false).length === 0,
      ),
    );
    expect(judgeModelRefusals(spec([]), 'old-a', {}, false)).toEqual([]);
    expect(judgeModelRefusals({} as ProviderSpec, 'old-a', {}, false)).toEqual([]);
  });

  it('answers a streaming request with the stream rejection, and a plain one with the other', () => {
    const refusals = spec([entry({ streamRejection: 'model-retired-stream' })]);
    expect(judgeModelRefusals(refusals, 'old-a', {}, true)[0]!.rejection).toBe('model-retired-stream');
    expect(judgeModelRefusals(refusals, 'old-a', {}, false)[0]!.rejection).toBe('model-retired');
    expect(judgeModelRefusals(spec([entry({})]), 'old-a', {}, true)[0]!.rejection).toBe('model-retired');
  });

  it('refuses a streamOnly entry only when the request streams', () => {
    const refusals = spec([entry({ streamOnly: true })]);
    expect(judgeModelRefusals(refusals, 'old-a', {}, false)).toEqual([]);
    expect(judgeModelRefusals(refusals, 'old-a', {}, true)).toHaveLength(1);
  });

  it('refuses a whenBody entry only when every condition holds of the body', () => {
    const refusals = spec([entry({ whenBody: [{ pointer: '/tools', exists: true }] })]);
    expect(judgeModelRefusals(refusals, 'old-a', { messages: [] }, false)).toEqual([]);
    expect(judgeModelRefusals(refusals, 'old-a', { tools: [] }, false)).toHaveLength(1);
  });

  it('answers with the first entry that fits', () => {
    const refusals = spec([
      entry({ whenBody: [{ pointer: '/tools', exists: true }], rejection: 'no-tools' }),
      entry({ rejection: 'gone' }),
    ]);
    expect(judgeModelRefusals(refusals, 'old-a', { tools: [] }, false)[0]!.rejection).toBe('no-tools');
    expect(judgeModelRefusals(refusals, 'old-a', {}, false)[0]!.rejection).toBe('gone');
  });

  it('marks a refusal whose rejection is contested, citing both sides', () => {
    const refusals = {
      models: { refuses: [entry({})] },
      rejections: {
        'model-retired': {
          sources: ['https://example.com/refused'],
          contested: { notes: 'served again', sources: ['https://example.com/served'] },
        },
      },
    } as unknown as ProviderSpec;
    expect(judgeModelRefusals(refusals, 'old-a', {}, false)[0]).toMatchObject({
      contested: true,
      sources: ['https://example.com/refused', 'https://example.com/served'],
    });
    expect(judgeModelRefusals(spec([entry({})]), 'old-a', {}, false)[0]!.contested).toBeUndefined();
  });
});
