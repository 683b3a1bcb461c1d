import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import type { RouteTable } from '../../shared/route-table/route-table.js';
import type { JudgeFinding } from '../conformance/verdict.js';
import { assessTable, type TargetAssessment } from './judge-harm.js';

/**
 * The harm of one table change, judged from the provider specs alone:
 * - harmful: some provider target gets a finding (fail or warn) it did not have before;
 * - harmless: nothing new is found, and every provider whose wire changed has a reason, read off
 *   its spec, why the change costs nothing (it ignores the key, takes it, wants none back...);
 * - unexplained: what some provider receives changed, nothing was found and the spec gives no
 *   reason. That is a hole in the judge or in a spec, never a pass.
 */
export interface ChangeVerdict {
  verdict: 'harmful' | 'harmless' | 'unexplained';
  /** New findings (harmful). */
  findings: JudgeFinding[];
  /** One line per provider target whose wire changed (harmless / unexplained), or why none did. */
  reasons: string[];
}

const key = (a: TargetAssessment) => `${a.provider}\u0000${a.reachedAs ?? ''}`;
const findingKey = (f: JudgeFinding) =>
  `${f.provider}\u0000${f.status}\u0000${f.behaviour}\u0000${f.field ?? ''}\u0000${f.detail.replace(/route [\w-]+/g, 'route')}`;

export function judgeTableChange(
  before: readonly TargetAssessment[],
  after: readonly TargetAssessment[],
): ChangeVerdict {
  const old = new Map(before.map((a) => [key(a), a]));
  const findings: JudgeFinding[] = [];
  const reasons: string[] = [];
  let unexplained = false;
  for (const a of after) {
    const b = old.get(key(a));
    const seen = new Set((b?.findings ?? []).map(findingKey));
    const fresh = a.findings.filter((f) => !seen.has(findingKey(f)));
    findings.push(...fresh);
    if (!b || JSON.stringify(b.profile) === JSON.stringify(a.profile)) continue;
    if (fresh.length > 0) continue;
    const gone = b.profile.filter((p) => !a.profile.includes(p));
    const added = a.profile.filter((p) => !b.profile.includes(p));
    const who = `${a.provider}${a.reachedAs ? ` (${a.reachedAs})` : ''}`;
    // Each changed carrier or parameter must be explained by a reason line naming it.
    const items = [...gone, ...added]
      .filter((p) => p.startsWith('carrier ') || p.startsWith('parameter '))
      .map((p) => p.split(' ')[1]!.split('=')[0]!);
    const why = [...new Set(items)].map((item) => ({
      item,
      line: a.reasons.find((r) => r.item === item || r.item === '*')?.text,
    }));
    const missing = why.filter((w) => !w.line);
    const moved =
      b.route !== a.route
        ? `now on route ${a.route} instead of ${b.route}`
        : `its wire changed (${[...gone.map((g) => `-${g}`), ...added.map((x) => `+${x}`)].join(', ')})`;
    if (missing.length > 0) {
      unexplained = true;
      reasons.push(
        `${who}: ${moved}; no finding and no reason in its spec for ${missing.map((m) => m.item).join(', ')}`,
      );
    } else {
      reasons.push(
        `${who}: ${moved}; harmless: ${why.length ? why.map((w) => w.line!).join('; ') : 'it gets the same carriers and parameters'}`,
      );
    }
  }
  if (findings.length > 0) return { verdict: 'harmful', findings, reasons: [] };
  // A target whose row changed but whose wire did not is named: "no spec resolves" only when true.
  for (const a of after) {
    const b = old.get(key(a));
    if (!b || b.row === a.row || JSON.stringify(b.profile) !== JSON.stringify(a.profile)) continue;
    const carriers = a.profile.filter((p) => p.startsWith('carrier ')).map((p) => p.split(' ')[1]);
    reasons.push(
      `${a.provider}${a.reachedAs ? ` (${a.reachedAs})` : ''}: resolves through route ${a.route}, which changed, and receives the same (${carriers.length ? carriers.join(', ') : 'no reasoning carrier'})${a.unsent ? `: ${a.unsent}` : ''}`,
    );
  }
  if (reasons.length === 0)
    reasons.push('no provider target receives anything different: no spec resolves through what changed');
  return { verdict: unexplained ? 'unexplained' : 'harmless', findings, reasons };
}

/** Judges `head` against `base` for every provider target of `specs`. */
export function judgeTables(base: RouteTable, head: RouteTable, specs: readonly ProviderSpec[]): ChangeVerdict {
  return judgeTableChange(assessTable(base, specs), assessTable(head, specs));
}
