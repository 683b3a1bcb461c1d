import type { Finding } from '../../shared/findings/finding.js';

/**
 * How a mock answers the findings of one request (docs/decisions/0044). An undisputed finding refuses. A contested
 * one answers as its lenient side does: the request is accepted and the finding travels as a warning (`lenient`).
 * `strict` makes a contested finding refuse, except one a recording shows the real provider accepting: a recording
 * outranks a bug report, so that rule never refuses.
 */
export interface AnswerPolicy {
  strict?: boolean;
}

export function refuses(finding: Finding, policy: AnswerPolicy = {}): boolean {
  if (!finding.contested) return true;
  return policy.strict === true && !(finding.recordedAcceptance?.length ?? 0);
}

/**
 * The findings as the mock answers them: those it refuses on first (the first of them words the answer), then the
 * lenient ones, marked. `refusing` is empty when the request is accepted.
 */
export function settleFindings(
  findings: readonly Finding[],
  policy: AnswerPolicy = {},
): { refusing: Finding[]; findings: Finding[] } {
  const refusing = findings.filter((f) => refuses(f, policy));
  const lenient = findings.filter((f) => !refuses(f, policy)).map((f) => ({ ...f, lenient: true as const }));
  return { refusing, findings: [...refusing, ...lenient] };
}
