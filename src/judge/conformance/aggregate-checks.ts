import { BEHAVIOURS, type Behaviour, type Check, type JudgeFinding } from './verdict.js';

/**
 * Aggregation: a cell's findings, behaviour by behaviour, into the checks the report shows. The
 * worst status wins (fail, then warn); a behaviour nothing exercised is n/a rather than a vacuous
 * pass; each check keeps its findings, and its detail is their text, one line each.
 */
export function aggregateChecks(findings: readonly JudgeFinding[], applies: ReadonlySet<Behaviour>): Check[] {
  return BEHAVIOURS.map((behaviour): Check => {
    const mine = findings.filter((f) => f.behaviour === behaviour);
    const lines = (list: JudgeFinding[]) => [...new Set(list.map((f) => f.detail))].join('\n');
    for (const status of ['fail', 'warn'] as const) {
      const hit = mine.filter((f) => f.status === status);
      if (hit.length > 0) return { behaviour, status, detail: lines(hit), findings: hit };
    }
    if (!applies.has(behaviour)) return { behaviour, status: 'n/a', detail: '' };
    return { behaviour, status: 'pass', detail: lines(mine), ...(mine.length ? { findings: mine } : {}) };
  });
}
