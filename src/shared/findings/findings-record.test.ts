import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FINDINGS_HEADER, type Finding } from './finding.js';
import { FindingsRecordError } from '../errors/findings-record-error.js';
import { decodeFindings, encodeFindings, findingsHeader, readFindingsHeader } from './findings-record.js';

const FINDING: Finding = {
  rule: 'must-echo',
  rejection: 'reasoning-content-not-passed-back',
  params: { index: 1, field: 'reasoning_content' },
  detail: 'message 1 — a tool-call turn without reasoning_content… ünïcode',
};

/** The error a decode throws, for its message. */
function failure(raw: string): FindingsRecordError {
  try {
    decodeFindings(raw, "DeepSeek's answer to call 1 (attempt 1)");
  } catch (err) {
    expect(err).toBeInstanceOf(FindingsRecordError);
    return err as FindingsRecordError;
  }
  throw new Error(`decoded ${JSON.stringify(raw)} without complaint`);
}

const arbFinding: fc.Arbitrary<Finding> = fc.record(
  {
    rule: fc.string({ minLength: 1 }),
    rejection: fc.string({ minLength: 1 }),
    params: fc.dictionary(
      fc.string(),
      fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    ),
    detail: fc.string({ unit: 'grapheme' }),
    contested: fc.constant(true as const),
    sources: fc.array(fc.webUrl()),
    via: fc.record(
      { provider: fc.string({ minLength: 1 }), providerName: fc.string(), gatewayRejection: fc.string() },
      { requiredKeys: ['provider', 'providerName'] },
    ),
  },
  { requiredKeys: ['rule', 'rejection', 'params'] },
);

describe('the findings record (specs/schema/findings.schema.json)', () => {
  it('round-trips any findings through one header value that is plain ASCII', () => {
    fc.assert(
      fc.property(fc.array(arbFinding, { maxLength: 4 }), (findings) => {
        const text = encodeFindings(findings);
        expect(text).toMatch(/^[\x20-\x7e]*$/);
        // A header value survives the Headers class (which refuses non-Latin-1 and control characters).
        const headers = new Headers(findingsHeader(findings));
        expect(readFindingsHeader(headers, 'a mock answer')).toEqual(JSON.parse(JSON.stringify(findings)));
      }),
      { numRuns: 40 },
    );
  });

  it('carries a version', () => {
    expect(JSON.parse(encodeFindings([FINDING]))).toEqual({ version: 1, findings: [FINDING] });
  });

  it('refuses a truncated record, naming where and that it was cut', () => {
    const whole = encodeFindings([FINDING]);
    for (const cut of [whole.length - 1, Math.floor(whole.length / 2), 1]) {
      const err = failure(whole.slice(0, cut));
      expect(err.message).toMatch(
        /^harness error: DeepSeek's answer to call 1 \(attempt 1\): .*truncated at \d+ characters/,
      );
      expect(err.message).not.toContain('\n');
    }
    expect(failure('').message).toContain('truncated at 0 characters');
  });

  it('refuses a corrupted record: not JSON, a bare list, no version, another version, a finding off the schema', () => {
    expect(failure('{"version":1,"findings":[}').problem).toMatch(/not JSON/);
    expect(failure(JSON.stringify([FINDING])).problem).toMatch(/bare list, not a versioned record/);
    expect(failure(JSON.stringify({ findings: [] })).problem).toBe('it has no version');
    expect(failure(JSON.stringify({ version: 2, findings: [] })).problem).toBe(
      'it is version 2; this build reads version 1',
    );
    expect(failure('"findings"').problem).toMatch(/string, not a record/);
    expect(failure(JSON.stringify({ version: 1, findings: [{ ...FINDING, rule: '' }] })).problem).toMatch(
      /^at \/findings\/0\/rule: /,
    );
    expect(
      failure(JSON.stringify({ version: 1, findings: [{ ...FINDING, params: { index: true } }] })).problem,
    ).toMatch(/^at \/findings\/0\/params\/index: /);
    expect(failure(JSON.stringify({ version: 1, findings: [{ rule: 'x', params: {} }] })).problem).toMatch(/rejection/);
  });

  it('reads no header as no findings (an answer no mock judged), and an empty one as truncated', () => {
    expect(readFindingsHeader(new Headers(), 'a 404')).toEqual([]);
    expect(readFindingsHeader({}, 'a 404')).toEqual([]);
    expect(() => readFindingsHeader({ [FINDINGS_HEADER]: '' }, 'an answer')).toThrow(FindingsRecordError);
  });
});
