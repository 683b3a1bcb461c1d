import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { describeMock, type MockOutcome } from '../../services/real-world-cases/replay-case.js';
import { namedRule, squash } from './named-rule.js';

/** How the mock's answer to a request compares with the live provider's answer to the same request. */
export type DriftCategory = 'agrees' | 'mock-too-strict' | 'mock-too-lenient' | 'wording-changed';

export const CATEGORY_LABEL: Record<DriftCategory, string> = {
  agrees: 'agrees',
  'mock-too-strict': 'mock too strict',
  'mock-too-lenient': 'mock too lenient',
  'wording-changed': 'wording changed',
};

/** What the live provider answered: its status and the text of its body. */
export interface LiveOutcome {
  status: number;
  text: string;
}

export type Comparison =
  | {
      kind: 'compared';
      category: DriftCategory;
      /**
       * The rule the result is filed under: the mock's rejection, else the one the live wording
       * names, else `accepted` (both accept) or `unnamed` (a live refusal in words no rule has).
       */
      rule: string;
      /** The rule the live wording names, when it names one. */
      liveRule?: string;
      detail: string;
      mock: string;
      live: string;
    }
  /** Nothing to compare: the mock cannot answer the request, or the live provider failed (5xx). */
  | { kind: 'inconclusive'; reason: string; mock: string; live: string };

const ok = (status: number) => status >= 200 && status < 300;

export function describeLive(live: LiveOutcome): string {
  if (ok(live.status)) return `${live.status} accepted`;
  return `${live.status} "${squash(live.text).slice(0, 160)}"`;
}

/**
 * Sorts one result. Both accept: agrees. The mock refuses what the live provider takes: the mock
 * is too strict; the other way round: too lenient. Both refuse: they agree when the status is
 * the same and the live wording names the rule the mock answered with (or holds the mock's whole
 * text); otherwise the wording changed (another status, another rule, or words no rule of the
 * spec has).
 */
export function compareWithLive(
  mock: MockOutcome,
  live: LiveOutcome,
  spec: ProviderSpec,
  specs: ReadonlyMap<string, ProviderSpec>,
): Comparison {
  const shown = { mock: describeMock(mock), live: describeLive(live) };
  if (mock.kind === 'unclaimed' || mock.kind === 'harness-error')
    return { kind: 'inconclusive', reason: `the mock could not answer: ${shown.mock}`, ...shown };
  if (live.status >= 500 || live.status < 200 || (live.status >= 300 && live.status < 400))
    return { kind: 'inconclusive', reason: `the live provider answered ${live.status}`, ...shown };
  const liveRule = ok(live.status) ? undefined : namedRule(live.text, spec, specs);
  const mockRule = mock.kind === 'rejected' ? mock.findings[0]?.rejection : undefined;
  const rule = mockRule ?? liveRule?.id ?? (ok(live.status) ? 'accepted' : 'unnamed');
  const base = { kind: 'compared' as const, rule, ...(liveRule ? { liveRule: liveRule.id } : {}), ...shown };
  if (ok(live.status))
    return mock.kind === 'accepted'
      ? { ...base, category: 'agrees', detail: '' }
      : { ...base, category: 'mock-too-strict', detail: `the mock refuses (${shown.mock}); the live provider accepts` };
  if (mock.kind === 'accepted')
    return {
      ...base,
      category: 'mock-too-lenient',
      detail: `the mock accepts; the live provider refuses (${shown.live})${liveRule ? `, naming ${liveRule.id}` : ''}`,
    };
  const sameStatus = mock.status === live.status;
  const sameRule = liveRule !== undefined && liveRule.id === mockRule;
  if (sameStatus && (sameRule || squash(live.text).includes(squash(mock.text))))
    return { ...base, category: 'agrees', detail: '' };
  const why = [
    ...(sameStatus ? [] : [`status ${live.status} live, ${mock.status} mock`]),
    liveRule
      ? liveRule.id === mockRule
        ? `the same rule (${liveRule.id})`
        : `the live wording names ${liveRule.id}, the mock answered ${mockRule ?? 'no named rule'}`
      : `the live wording names no rule of ${spec.id}'s spec`,
  ];
  return { ...base, category: 'wording-changed', detail: why.join('; ') };
}
