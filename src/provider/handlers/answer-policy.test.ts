import { describe, expect, it } from 'vitest';
import type { Finding } from '../../shared/findings/finding.js';
import { refuses, settleFindings } from './answer-policy.js';

const plain: Finding = { rule: 'must-echo', rejection: 'missing', params: {} };
const disputed: Finding = { ...plain, rejection: 'disputed', contested: true, sources: ['https://a', 'https://b'] };
const recorded: Finding = { ...disputed, rejection: 'recorded', recordedAcceptance: ['https://b'] };

describe('answer policy (docs/decisions/0044)', () => {
  it('refuses an undisputed finding, answers a contested one as its lenient side, and refuses it under --strict', () => {
    expect(refuses(plain)).toBe(true);
    expect(refuses(disputed)).toBe(false);
    expect(refuses(disputed, { strict: true })).toBe(true);
  });

  it('never refuses a rule a recording shows accepted, --strict included', () => {
    expect(refuses(recorded)).toBe(false);
    expect(refuses(recorded, { strict: true })).toBe(false);
  });

  it('puts what it refuses on first and marks the rest lenient', () => {
    expect(settleFindings([disputed, plain])).toEqual({
      refusing: [plain],
      findings: [plain, { ...disputed, lenient: true }],
    });
    expect(settleFindings([recorded, disputed], { strict: true })).toEqual({
      refusing: [disputed],
      findings: [disputed, { ...recorded, lenient: true }],
    });
    expect(settleFindings([disputed]).refusing).toEqual([]);
  });
});
