import type { EngineOperation } from '../engine-under-test.js';
import type { Behaviour, Check } from './verdict.js';

/** Behaviours a cell needed an operation for that the engine under test does not implement. */
export interface NotJudged {
  operation: EngineOperation;
  behaviours: Behaviour[];
}

/** What each operation is, in the words the report uses. */
export const OPERATION_WORDS: Record<EngineOperation, string> = {
  fallback: 'the unknown-field fallback (retry once without a refused carrier)',
  read: 'reading answers into history',
  stream: 'reading streamed answers',
  store: 'session storage (import, resume, branch, stored turns)',
  compact: 'compaction and its token estimate',
};

export const notJudgedText = (operation: EngineOperation) =>
  `not judged: the engine does not implement ${operation} (${OPERATION_WORDS[operation]})`;

/**
 * A check of a behaviour the engine could not be judged on says so: an n/a check gets the reason as
 * its detail (it is never shown as passed), and a passing one says which part was not judged (the
 * requests were, the answers it never read were not).
 */
export function notJudgedCheck(check: Check, notJudged: readonly NotJudged[]): Check {
  const reasons = notJudged
    .filter((n) => n.behaviours.includes(check.behaviour))
    .map((n) => notJudgedText(n.operation));
  if (reasons.length === 0) return check;
  if (check.status === 'n/a') return { ...check, detail: reasons.join('\n') };
  if (check.status === 'pass') return { ...check, detail: [check.detail, ...reasons].filter(Boolean).join('\n') };
  return check;
}
