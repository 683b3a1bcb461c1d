import { describe, expect, it } from 'vitest';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { classCoverage, formatClassCoverage } from './class-coverage.js';
import { KNOWN_CLASS_GAPS } from './known-class-gaps.js';
import { realWorldAgreement } from './agreement.js';

const rejection = (extra: Record<string, unknown> = {}) => ({
  status: 400,
  body: { error: 'x' },
  wording: 'verbatim',
  sources: [],
  ...extra,
});

const spec = {
  id: 'tiny',
  request: { schema: { type: 'object' }, invalidRejection: 'invalid' },
  response: { carriers: ['reasoning_content'] },
  echo: [{ field: 'reasoning_content', turns: 'tool-call-turns', level: 'required', rejection: 'missing' }],
  messageRules: [{ rejection: 'alternate', alternation: { ask: ['user'], answer: ['assistant'] } }],
  rejections: {
    invalid: rejection({ kind: 'malformed-body' }),
    missing: rejection({ kind: 'missing-reasoning' }),
    alternate: rejection({ kind: 'invalid-request' }),
    retired: rejection({ kind: 'invalid-request', ruleClass: 'model-and-endpoint' }),
  },
} as unknown as ProviderSpec;

describe('rule classes covered by real cases', () => {
  it('counts per spec the rules of each class and the cases naming the spec in it, and lists classes without a case', () => {
    const coverage = classCoverage(
      [spec],
      [
        { provider: 'tiny', ruleClass: 'reasoning-echo' },
        { provider: 'tiny', ruleClass: 'reasoning-echo' },
        { provider: 'tiny', ruleClass: 'leniency' },
        // A case naming no spec counts nowhere; one that fires a rule of another class counts there too, once.
        { provider: 'other', ruleClass: 'history-structure' },
        { provider: 'tiny', ruleClass: 'reasoning-echo', fired: ['tiny/alternate', 'tiny/alternate', 'x/y'] },
      ],
    );
    expect(coverage.bySpec.tiny).toEqual({
      'reasoning-echo': { rules: 1, cases: 3 },
      'history-structure': { rules: 1, cases: 1 },
      'request-schema': { rules: 1, cases: 0 },
      leniency: { rules: 0, cases: 1 },
      'model-and-endpoint': { rules: 1, cases: 0 },
    });
    expect(coverage.missing).toEqual(['tiny/model-and-endpoint', 'tiny/request-schema']);
    const printed = formatClassCoverage(coverage);
    expect(printed).toContain('tiny                 reasoning-echo 1/3, history-structure 1/1, !request-schema 1/0');
    expect(printed).toContain('  tiny/model-and-endpoint');
  });

  it('has no gap in the committed specs and corpus but the named backlog (known-class-gaps.ts)', async () => {
    const { missing } = (await realWorldAgreement()).classes;
    const unlisted = missing.filter((m) => !KNOWN_CLASS_GAPS.has(m));
    const filled = [...KNOWN_CLASS_GAPS.keys()].filter((m) => !missing.includes(m));
    // A new rule class in a spec needs a real case beside it; a filled gap leaves the backlog.
    expect({ unlisted, filled }).toEqual({ unlisted: [], filled: [] });
  });
});
