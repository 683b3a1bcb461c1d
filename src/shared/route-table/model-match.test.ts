import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareVersions, modelMatches, versionInRange, versionPatternProblem } from './model-match.js';

const version = fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 3 });

describe('compareVersions', () => {
  it('is antisymmetric, ignores trailing zeros and agrees with the order of the first differing number', () => {
    fc.assert(
      fc.property(version, version, (a, b) => {
        expect(Math.sign(compareVersions(a, b)) + Math.sign(compareVersions(b, a))).toBe(0);
        expect(compareVersions(a, [...a, 0])).toBe(0);
        const bumped = [...a];
        bumped[bumped.length - 1]! += 1;
        expect(compareVersions(bumped, a)).toBeGreaterThan(0);
        expect(compareVersions([...a, 1], a)).toBeGreaterThan(0);
      }),
      { numRuns: 100 },
    );
  });

  it('reads 3.10 as later than 3.9 (numbers, not strings)', () => {
    expect(versionInRange('qwen3.10-max', { pattern: 'qwen(\\d+(?:\\.\\d+)?)', min: '3.9' })).toBe(true);
  });
});

describe('versionInRange', () => {
  const kimi = { pattern: 'kimi-k(\\d+(?:[.p]\\d+)?)', min: '2.6' };
  it("takes min inclusive and below exclusive, and reads Fireworks' 2p6 spelling", () => {
    expect(versionInRange('kimi-k2.6', kimi)).toBe(true);
    expect(versionInRange('accounts/fireworks/models/kimi-k2p6', kimi)).toBe(true);
    expect(versionInRange('kimi-k2.5', kimi)).toBe(false);
    expect(versionInRange('kimi-k2-thinking', kimi)).toBe(false);
    expect(versionInRange('kimi-k3', kimi)).toBe(true);
    expect(versionInRange('kimi-k2.9', { ...kimi, below: '3' })).toBe(true);
    expect(versionInRange('kimi-k3', { ...kimi, below: '3' })).toBe(false);
  });

  it('does not match a model of another family', () => {
    expect(versionInRange('glm-5', kimi)).toBe(false);
  });
});

describe('modelMatches', () => {
  it('holds when a substring OR a version range holds, and with no condition at all', () => {
    const matcher = { models: ['kimi-k2-thinking'], versions: [{ pattern: 'kimi-k(\\d+(?:\\.\\d+)?)', min: '2.5' }] };
    expect(modelMatches('Moonshotai/Kimi-K2-Thinking', matcher)).toBe(true);
    expect(modelMatches('kimi-k2.5', matcher)).toBe(true);
    expect(modelMatches('kimi-k2-0905', matcher)).toBe(false);
    expect(modelMatches('anything', undefined)).toBe(true);
  });
});

describe('versionPatternProblem', () => {
  it('wants a compiling pattern with a capture group', () => {
    expect(versionPatternProblem('qwen(\\d+)')).toBeUndefined();
    expect(versionPatternProblem('qwen\\d+')).toContain('no capture group');
    expect(versionPatternProblem('qwen(')).toContain('not a regular expression');
  });
});
