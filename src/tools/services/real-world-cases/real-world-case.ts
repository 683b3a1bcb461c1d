import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid } from '../../../shared/validation/validate.js';
import { projectRoot, specsDir } from '../../../shared/project-root.js';

/** Types mirroring specs/schema/real-world-case.schema.json (the schema is the authority). */
export type RealOutcome = { accepted: true } | { status: number; wording?: string };

import { RULE_CLASSES, type RuleClass } from '../../../shared/provider-specs/rule-class.js';

export { RULE_CLASSES, type RuleClass };

/** What kind of day a case's `date` is, in the schema's order (specs/schema/real-world-case.schema.json, `dateBasis`). */
export const DATE_BASES = ['published', 'recorded', 'committed', 'page-updated', 'read'] as const;
export type DateBasis = (typeof DATE_BASES)[number];

export interface RealWorldCase {
  id: string;
  ruleClass: RuleClass;
  source: {
    url: string;
    kind: 'bug-report' | 'pull-request' | 'discussion' | 'recorded-exchange' | 'sdk-fixture' | 'docs';
    also?: string[];
  };
  framework: string;
  provider: string;
  upstream?: string;
  model: string;
  request: { body: unknown; stream?: boolean; path?: string };
  outcome: RealOutcome;
  /** The day (YYYY-MM-DD) the behaviour was observed, from the source; newer outranks older. */
  date?: string;
  /** What kind of day `date` is; present exactly when `date` is. */
  dateBasis?: DateBasis;
  contested?: boolean;
  contestedSources?: string[];
  notes?: string;
  /** Only on a case captured live by `verify --live`. */
  provenance?: { kind: 'recorded'; date: string; tool?: string; endpointHost: string; derivedFrom?: string };
}

export interface LoadedCase {
  case: RealWorldCase;
  /** Path relative to the project root, for messages. */
  path: string;
}

export function realWorldDir(): string {
  return join(specsDir(), 'real-world');
}

export function isAccepted(outcome: RealOutcome): outcome is { accepted: true } {
  return 'accepted' in outcome;
}

/** Reads and validates one case file; its id must be its file name so a case is found by either. */
export function loadRealWorldCase(file: string): LoadedCase {
  const value = assertValid<RealWorldCase>(readJsonFile(file), 'real-world-case.schema.json', file);
  const expected = basename(file, '.json');
  if (value.id !== expected)
    throw new InputError(
      file,
      '/id',
      `id "${value.id}" differs from the file name`,
      `rename the file or set id to "${expected}"`,
    );
  return { case: value, path: relative(projectRoot(), file) };
}

/** Every case under specs/real-world/, sorted by id. */
export function loadRealWorldCases(dir: string = realWorldDir()): LoadedCase[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadRealWorldCase(join(dir, f)));
}

/** How many cases say when their behaviour was observed, and on what basis, so the undated backlog is printed, not guessed. */
export function datedCases(cases: readonly LoadedCase[]): {
  dated: number;
  byBasis: Record<DateBasis, number>;
  undated: string[];
} {
  const byBasis = Object.fromEntries(DATE_BASES.map((b) => [b, 0])) as Record<DateBasis, number>;
  const undated: string[] = [];
  for (const { case: c } of cases) {
    // The schema pairs date and dateBasis; a case built in code without a basis counts as undated.
    if (c.date === undefined || c.dateBasis === undefined) undated.push(c.id);
    else byBasis[c.dateBasis] += 1;
  }
  return { dated: cases.length - undated.length, byBasis, undated };
}

/** "650/652 (published 470, recorded 75, ...; 2 without a date)": every basis with a case, in the schema's order. */
export function formatDatedCases(total: number, counts: ReturnType<typeof datedCases>): string {
  const bases = DATE_BASES.filter((b) => counts.byBasis[b] > 0).map((b) => `${b} ${counts.byBasis[b]}`);
  const parts = [...(bases.length > 0 ? [bases.join(', ')] : []), `${counts.undated.length} without a date`];
  return `${counts.dated}/${total} (${parts.join('; ')})`;
}
