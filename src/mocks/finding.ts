/**
 * One thing a mocked provider found wrong with a request. `rejection` names the entry in the
 * provider spec's `rejections` that the mock answers with; `params` fill its placeholders.
 * `rule` is the behaviour it bears on (see src/conformance/verdict.ts BEHAVIOURS).
 */
export interface Finding {
  rule: string;
  rejection: string;
  params: Record<string, string | number>;
  detail?: string;
}

/** Header on every mock answer listing its findings, so a black-box client can be judged too. */
export const FINDINGS_HEADER = 'x-reasoning-replay-findings';
/** Headers the conformance runner sends so a mock answers call N of scenario S from its fixture. */
export const SCENARIO_HEADER = 'x-reasoning-replay-scenario';
export const CALL_HEADER = 'x-reasoning-replay-call';
