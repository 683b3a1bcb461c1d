import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { ruleClassOf } from './rule-class-of.js';
import { specRules } from './spec-rules.js';

const carriers = ['reasoning_content', 'reasoning'];

describe('the rule class of a spec rule', () => {
  it('is the rejection own ruleClass first, whatever names it', () => {
    expect(ruleClassOf({ kind: 'invalid-signature', ruleClass: 'history-structure' }, [{ section: 'echo' }], [])).toBe(
      'history-structure',
    );
  });

  it('follows a signature or missing-reasoning kind wherever the rule is named', () => {
    for (const kind of ['invalid-signature', 'missing-signature', 'modified-reasoning'] as const)
      expect(ruleClassOf({ kind }, [], carriers)).toBe('reasoning-signature');
    expect(ruleClassOf({ kind: 'missing-reasoning' }, [{ section: 'schema' }], carriers)).toBe('reasoning-echo');
  });

  it('follows the section naming it', () => {
    expect(ruleClassOf({ kind: 'invalid-request' }, [{ section: 'echo' }], carriers)).toBe('reasoning-echo');
    expect(ruleClassOf({ kind: 'invalid-request' }, [{ section: 'messageRules' }], carriers)).toBe('history-structure');
    expect(ruleClassOf({ kind: 'invalid-request' }, [{ section: 'parameters' }], carriers)).toBe(
      'reasoning-parameters',
    );
    expect(ruleClassOf({ kind: 'invalid-request' }, [{ section: 'models' }], carriers)).toBe('model-and-endpoint');
    expect(ruleClassOf({ kind: 'unknown-field' }, [{ section: 'schema' }], carriers)).toBe('request-schema');
    expect(ruleClassOf({ kind: 'malformed-body' }, [{ section: 'schema' }], carriers)).toBe('request-schema');
  });

  it('tells a forbidden reasoning carrier from a forbidden member and from a parameter constraint', () => {
    const forbid = (path: string) => [{ section: 'forbid', path }];
    expect(ruleClassOf({ kind: 'unknown-field' }, forbid('messages.*.reasoning_content'), carriers)).toBe(
      'reasoning-field',
    );
    expect(ruleClassOf({ kind: 'unknown-field' }, forbid('contents.*.parts.*.functionResponse.id'), carriers)).toBe(
      'request-schema',
    );
    expect(ruleClassOf({ kind: 'malformed-body' }, forbid('messages.*.content'), carriers)).toBe('request-schema');
    expect(ruleClassOf({ kind: 'invalid-request' }, forbid('temperature'), carriers)).toBe('reasoning-parameters');
    // Forbidden on a carrier in one place and elsewhere in another: not a carrier rule only.
    expect(
      ruleClassOf(
        { kind: 'unknown-field' },
        [...forbid('messages.*.reasoning'), ...forbid('reasoning_format')],
        carriers,
      ),
    ).toBe('request-schema');
  });

  it('is unknown for a rule only a family judge applies, which must then say it', () => {
    expect(ruleClassOf({ kind: 'invalid-request' }, [], carriers)).toBeUndefined();
    expect(ruleClassOf(undefined, [], carriers)).toBeUndefined();
  });

  it('is known for every rule of every committed spec but a gateway envelope', () => {
    const unclassified = loadProviderSpecs()
      .flatMap((s) => specRules(s))
      .filter((r) => r.ruleClass === undefined && !r.kinds.every((k) => k === 'envelope'))
      .map((r) => r.key);
    // A rule named by no data needs `ruleClass` on its rejection in the spec (specs/providers/<id>.json).
    expect(unclassified).toEqual([]);
  });
});
