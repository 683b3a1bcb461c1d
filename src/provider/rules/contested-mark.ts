import type { Contested } from '../../shared/provider-specs/provider-spec.js';
import type { Finding } from '../../shared/findings/finding.js';

/**
 * What a finding answered by a contested rule carries: the mark, both sides' sources (the rule's own first) and the
 * recordings that show the real provider accepting. The mock's answer follows from these (answer-policy.ts), so every
 * judge marks a dispute the same way.
 */
export function contestedMark(
  contested: Contested,
  own: readonly string[],
): Pick<Finding, 'contested' | 'sources' | 'recordedAcceptance'> {
  return {
    contested: true,
    sources: [...own, ...contested.sources.filter((s) => !own.includes(s))],
    ...(contested.recordedAcceptance?.length ? { recordedAcceptance: [...contested.recordedAcceptance] } : {}),
  };
}
