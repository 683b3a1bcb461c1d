/**
 * One thing a mocked provider found wrong with a request. `rejection` names the entry in the
 * provider spec's `rejections` that the mock answers with; `params` fill its placeholders.
 * `rule` is the behaviour it bears on (see src/judge/conformance/verdict.ts BEHAVIOURS).
 *
 * `contested`: public sources disagree on this rule (the spec marks it `contested` and cites both
 * sides); `sources` then holds both sides' URLs, the stricter side first, and
 * `recordedAcceptance` the recordings among them in which the real provider accepted such a request.
 * `lenient`: the mock answered as the lenient side (it accepted the request, or refused it for
 * another finding): a warning, never a failure. Under `--strict` a contested finding without a
 * recorded acceptance is refused and carries no `lenient` (docs/decisions/0044).
 */
export interface Finding {
  rule: string;
  rejection: string;
  params: Record<string, string | number>;
  detail?: string;
  contested?: true;
  sources?: string[];
  recordedAcceptance?: string[];
  lenient?: true;
  /** A gateway passing on its upstream's rejection: the upstream spec, and the envelope it is wrapped in. */
  via?: { provider: string; providerName: string; gatewayRejection?: string };
}

/**
 * Header on every mock answer holding its findings record (findings-record.ts writes and reads it;
 * nothing else may), so a black-box client can be judged too.
 */
export const FINDINGS_HEADER = 'x-reasoning-replay-findings';
/** Headers the conformance runner sends so a mock answers call N of scenario S from its fixture. */
export const SCENARIO_HEADER = 'x-reasoning-replay-scenario';
export const CALL_HEADER = 'x-reasoning-replay-call';
