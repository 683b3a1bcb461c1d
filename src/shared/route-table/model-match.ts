import type { ModelMatcher, VersionRange } from './route-table.js';

/** `2.6`, `2p6` (Fireworks' spelling of kimi-k2.6) -> [2, 6]. */
export function parseVersion(text: string): number[] {
  return text.split(/[.p]/).map((part) => Number(part));
}

/** Number by number; a missing trailing number counts as 0 (`3` == `3.0`). */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const patterns = new Map<string, RegExp>();
function compiled(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    patterns.set(pattern, re);
  }
  return re;
}

/** The version a range's pattern reads from a model id, or undefined when the id is not of that family. */
export function modelVersion(model: string, range: Pick<VersionRange, 'pattern'>): number[] | undefined {
  const found = compiled(range.pattern).exec(model.toLowerCase());
  const text = found?.[1];
  if (text === undefined || !/^\d+(?:[.p]\d+)*$/.test(text)) return undefined;
  return parseVersion(text);
}

export function versionInRange(model: string, range: VersionRange): boolean {
  const version = modelVersion(model, range);
  if (!version) return false;
  if (range.min !== undefined && compareVersions(version, parseVersion(range.min)) < 0) return false;
  if (range.below !== undefined && compareVersions(version, parseVersion(range.below)) >= 0) return false;
  return true;
}

/**
 * True when the model id contains one of `models` (case-insensitive) or falls in one of the
 * `versions` ranges; a matcher with neither matches every model.
 */
export function modelMatches(model: string, matcher: ModelMatcher | undefined): boolean {
  if (!matcher || (matcher.models === undefined && matcher.versions === undefined)) return true;
  const m = model.toLowerCase();
  return (
    (matcher.models?.some((s) => m.includes(s)) ?? false) ||
    (matcher.versions?.some((r) => versionInRange(m, r)) ?? false)
  );
}

/** A range's pattern problem, for the linter: it must compile and capture the version in group 1. */
export function versionPatternProblem(pattern: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (err) {
    return `is not a regular expression (${(err as Error).message})`;
  }
  // Count capture groups by matching the empty alternative: a pattern with groups yields them as undefined.
  const groups = new RegExp(`${re.source}|`).exec('')!.length - 1;
  return groups >= 1 ? undefined : 'has no capture group: the first group must hold the version';
}
