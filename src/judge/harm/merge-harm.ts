import { aggregateStatus, cellStatus, type CellVerdict, type JudgeFinding } from '../conformance/verdict.js';
import type { TargetAssessment } from './judge-harm.js';

/**
 * Folds the harm judge's findings for a provider into each of its cells that ran, so reports, JUnit
 * and the exit code carry them like any other check: the table-level finding is the same for every
 * scenario of that provider, and a scenario that never reaches the turn it names still ran through
 * the route that would harm it.
 */
export function mergeHarm(cell: CellVerdict, assessments: readonly TargetAssessment[]): CellVerdict {
  if (cell.status === 'n/a' && cell.exchanges.length === 0) return cell;
  const findings: JudgeFinding[] = assessments.filter((a) => a.provider === cell.target).flatMap((a) => a.findings);
  if (findings.length === 0) return cell;
  const checks = cell.checks.map((check) => {
    const mine = findings.filter((f) => f.behaviour === check.behaviour);
    if (mine.length === 0) return check;
    const lines = [
      ...(check.detail ? [check.detail] : []),
      ...mine.map((f) => `[${f.status === 'warn' ? 'warn' : 'harm'}] ${f.detail}`),
    ];
    return {
      ...check,
      status: aggregateStatus([check.status === 'n/a' ? 'pass' : check.status, ...mine.map((f) => f.status)]),
      detail: [...new Set(lines)].join('\n'),
      findings: [...(check.findings ?? []), ...mine],
    };
  });
  return { ...cell, checks, status: cellStatus(checks) };
}
