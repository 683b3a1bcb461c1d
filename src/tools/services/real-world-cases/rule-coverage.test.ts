import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { formatCoverage, ruleCoverage } from './rule-coverage.js';
import { specRules } from './spec-rules.js';

const rejection = (wording: string) => ({ status: 400, body: { error: wording }, wording: 'verbatim', sources: [] });

/** A small spec: one rule per kind of data, one named by no data, one in a section no code knows of yet. */
const synthetic = {
  id: 'tiny',
  request: { schema: { type: 'object', properties: { rejection: { type: 'string' } } }, invalidRejection: 'invalid' },
  echo: [{ field: 'reasoning_content', turns: 'tool-call-turns', level: 'required', rejection: 'missing-reasoning' }],
  forbid: [{ path: 'messages.*.reasoning', rejection: 'unknown-field' }],
  rejections: {
    invalid: rejection('bad body'),
    'missing-reasoning': rejection('pass it back'),
    'unknown-field': rejection('unknown field'),
    'signature-invalid': { ...rejection('bad signature'), contested: { notes: 'n', sources: ['https://x.test'] } },
  },
  models: {
    variants: [
      {
        match: '^big',
        label: 'big',
        sources: [],
        rejections: { 'budget-too-low': rejection('budget below minimum') },
        forbid: [{ path: 'temperature', rejection: 'budget-too-low' }],
      },
    ],
  },
  // A section added after this code was written: its rules count, under its own name.
  constraints: [{ model: 'big', refusedBy: 'effort-unsupported' }],
  later: { rejections: { 'effort-unsupported': rejection('effort not supported') } },
} as unknown as ProviderSpec;

describe('the rules of a provider spec', () => {
  it('are its rejections, wherever they are tabled, each with the sections of the data naming it', () => {
    const rules = specRules(synthetic);
    expect(rules.map((r) => [r.rejection, r.kinds])).toEqual([
      ['budget-too-low', ['forbid']],
      ['effort-unsupported', ['constraints']],
      ['invalid', ['schema']],
      ['missing-reasoning', ['echo']],
      ['signature-invalid', ['judge']],
      ['unknown-field', ['forbid']],
    ]);
    expect(rules.filter((r) => r.contested).map((r) => r.key)).toEqual(['tiny/signature-invalid']);
  });

  it('do not read the request schema (a property named `rejection` there is JSON Schema, not a rule)', () => {
    expect(specRules(synthetic).some((r) => r.rejection === 'string')).toBe(false);
  });
});

describe('coverage of the spec rules by real cases', () => {
  it('counts a rule a case fires and not one no case fires', () => {
    const c = ruleCoverage([synthetic], ['tiny/unknown-field', 'tiny/unknown-field', 'tiny/effort-unsupported']);
    expect(c.total).toEqual({ rules: 6, fired: 2 });
    expect(c.byProvider).toEqual({ tiny: { rules: 6, fired: 2 } });
    expect(c.byKind.forbid).toEqual({ rules: 2, fired: 1 });
    expect(c.byKind.constraints).toEqual({ rules: 1, fired: 1 });
    expect(c.byKind.echo).toEqual({ rules: 1, fired: 0 });
    // By class: both forbids constrain parameters; a judge rule without a kind or ruleClass, and a section no code
    // knows, count in no class.
    expect(c.byClass).toEqual({
      'reasoning-parameters': { rules: 2, fired: 1 },
      'reasoning-echo': { rules: 1, fired: 0 },
      'request-schema': { rules: 1, fired: 0 },
    });
    expect(c.unfired).toEqual([
      'tiny/budget-too-low',
      'tiny/invalid',
      'tiny/missing-reasoning',
      'tiny/signature-invalid',
    ]);
  });

  it('ignores a fired key naming no rule of the specs (another spec, a rejection since removed)', () => {
    const c = ruleCoverage([synthetic], ['other/unknown-field', 'tiny/gone']);
    expect(c.total).toEqual({ rules: 6, fired: 0 });
  });

  it('prints one line per provider and per kind, and the total', () => {
    const text = formatCoverage(ruleCoverage([synthetic], ['tiny/invalid']));
    expect(text).toMatch(/^tiny +1\/6 +rules fired by a case \(17%\)$/m);
    expect(text).toMatch(/^schema +1\/1 +rules fired by a case \(100%\)$/m);
    expect(text).toMatch(/^total +1\/6 /m);
    expect(text).toMatch(/^per rule class of the rule:\nreasoning-echo +0\/1 +rules fired by a case \(0%\)$/m);
  });
});
