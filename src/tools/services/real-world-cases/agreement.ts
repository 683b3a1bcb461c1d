import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { providerRoutes } from '../../../provider/handlers/provider-routes.js';
import type { MockRoute } from '../../../provider/handlers/mock-route.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { loadRealWorldCases, RULE_CLASSES, type LoadedCase, type RuleClass } from './real-world-case.js';
import { compareOutcomes, describeMock, replayCase, type MockOutcome } from './replay-case.js';
import { ruleCoverage, type CoverageCounts, type RuleCoverage } from './rule-coverage.js';
import { classCoverage, type ClassCoverage } from './class-coverage.js';
import type { ParameterCoverageSection } from '../parameter-coverage/parameter-coverage.js';

export interface CaseResult {
  id: string;
  path: string;
  provider: string;
  ruleClass: RuleClass;
  accepted: boolean;
  /** The case says public sources disagree, or the mock answered with a rule its spec marks contested. */
  contested: boolean;
  /** Who says so: the case file, or the provider spec behind the mock's finding. */
  contestedBy?: 'case' | 'spec';
  agrees: boolean;
  /** Empty when the mock agrees; else `real=..., mock=...`. */
  difference: string;
  mock: string;
  /** The spec rules the mock's answer named (`<spec id>/<rejection id>`; a gateway's upstream rule under its spec). */
  fired: string[];
}

export interface ProviderAgreement {
  cases: number;
  accepted: number;
  rejected: number;
  agree: number;
  /** Disagreements on cases whose sources agree: the mock is wrong. */
  disagree: number;
  /** Disagreements on contested cases: warnings. */
  contestedDisagree: number;
}

export interface RealWorldAgreement {
  total: ProviderAgreement;
  byProvider: Record<string, ProviderAgreement>;
  /** The same counts per rule class of the cases (every class of the schema, empty ones included). */
  byClass: Record<RuleClass, ProviderAgreement>;
  /** The share of the specs' rules some case fires. */
  coverage: RuleCoverage;
  /** Per spec, each rule class it has rules in and how many cases of that class name the spec. */
  classes: ClassCoverage;
  results: CaseResult[];
}

const empty = (): ProviderAgreement => ({
  cases: 0,
  accepted: 0,
  rejected: 0,
  agree: 0,
  disagree: 0,
  contestedDisagree: 0,
});

function count(into: ProviderAgreement, r: CaseResult): void {
  into.cases++;
  if (r.accepted) into.accepted++;
  else into.rejected++;
  if (r.agrees) into.agree++;
  else if (r.contested) into.contestedDisagree++;
  else into.disagree++;
}

/** The spec rules a mock's answer names: each finding's rejection, under the upstream's spec when a gateway passed it on. */
function firedRules(provider: string, mock: MockOutcome | undefined): string[] {
  if (!mock || (mock.kind !== 'accepted' && mock.kind !== 'rejected')) return [];
  const keys = new Set<string>();
  for (const f of mock.findings) {
    if (f.via) {
      keys.add(`${f.via.provider}/${f.rejection}`);
      if (f.via.gatewayRejection) keys.add(`${provider}/${f.via.gatewayRejection}`);
    } else keys.add(`${provider}/${f.rejection}`);
  }
  return [...keys].sort();
}

/**
 * Replays every case of specs/real-world/ against the provider mocks and counts, per provider,
 * how often the mock answers as the real provider did. A case naming no known provider spec is a
 * disagreement (the mock cannot answer it), never skipped.
 */
export async function realWorldAgreement(
  options: { cases?: LoadedCase[]; specs?: ProviderSpec[]; fixtures?: FixtureStore; strict?: boolean } = {},
): Promise<RealWorldAgreement> {
  const cases = options.cases ?? loadRealWorldCases();
  const specList = options.specs ?? loadProviderSpecs();
  const specs = new Map(specList.map((s) => [s.id, s]));
  const fixtures = options.fixtures ?? new FixtureStore();
  const routes = new Map<string, MockRoute[]>();
  const results: CaseResult[] = [];
  for (const { case: c, path } of cases) {
    const spec = specs.get(c.provider);
    let mock: MockOutcome | undefined;
    if (spec) {
      let list = routes.get(spec.id);
      if (!list) routes.set(spec.id, (list = providerRoutes(spec, fixtures, options.strict ? { strict: true } : {})));
      mock = await replayCase(c, spec, list, fixtures);
    }
    const verdict = mock
      ? compareOutcomes(c.outcome, mock)
      : { agrees: false, difference: `no provider spec "${c.provider}"` };
    const contestedBy =
      c.contested === true
        ? 'case'
        : (mock?.kind === 'rejected' && mock.findings[0]?.contested === true) ||
            (mock?.kind === 'accepted' && mock.findings.some((f) => f.lenient))
          ? 'spec'
          : undefined;
    results.push({
      id: c.id,
      path,
      provider: c.provider,
      ruleClass: c.ruleClass,
      accepted: 'accepted' in c.outcome,
      contested: contestedBy !== undefined,
      ...(contestedBy ? { contestedBy } : {}),
      agrees: verdict.agrees,
      difference: verdict.difference,
      mock: mock ? describeMock(mock) : 'no spec',
      fired: firedRules(c.provider, mock),
    });
  }
  const byProvider: Record<string, ProviderAgreement> = {};
  const byClass = Object.fromEntries(RULE_CLASSES.map((k) => [k, empty()])) as Record<RuleClass, ProviderAgreement>;
  const total = empty();
  for (const r of results) {
    count((byProvider[r.provider] ??= empty()), r);
    count(byClass[r.ruleClass], r);
    count(total, r);
  }
  const coverage = ruleCoverage(
    specList,
    results.flatMap((r) => r.fired),
  );
  const classes = classCoverage(specList, results);
  return { total, byProvider, byClass, coverage, classes, results };
}

const agreementLine = (name: string, a: ProviderAgreement) =>
  `${name.padEnd(20)} ${String(a.agree).padStart(3)}/${String(a.cases).padEnd(3)} agree  (${a.accepted} accepted, ${a.rejected} rejected)` +
  (a.disagree ? `  ${a.disagree} disagree` : '') +
  (a.contestedDisagree ? `  ${a.contestedDisagree} contested warning${a.contestedDisagree > 1 ? 's' : ''}` : '');

/** One line per provider, for test output and the CLI: `deepseek  5/6 agree (1 contested warning)`. */
export function formatAgreement(agreement: RealWorldAgreement): string {
  return [
    ...Object.entries(agreement.byProvider)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([p, a]) => agreementLine(p, a)),
    agreementLine('total', agreement.total),
  ].join('\n');
}

/** The same lines per rule class of the cases, in the schema's order (a class without cases shows 0/0). */
export function formatClassAgreement(agreement: RealWorldAgreement): string {
  return [
    ...RULE_CLASSES.map((k) => agreementLine(k, agreement.byClass[k])),
    agreementLine('total', agreement.total),
  ].join('\n');
}

/** The one line `check` prints: how many cases, and how many the mocks answer as the real provider did. */
export function agreementSummary(agreement: RealWorldAgreement): string {
  const t = agreement.total;
  const parts = [`${t.agree}/${t.cases} answered as the real provider did`];
  if (t.contestedDisagree) parts.push(`${t.contestedDisagree} contested (warning)`);
  if (t.disagree) parts.push(`${t.disagree} disagree`);
  return `real-world cases: ${t.cases} (${t.accepted} accepted, ${t.rejected} rejected): ${parts.join(', ')}`;
}

/**
 * What a report's "real-world cases" section shows: totals, one row per provider, and every case the mocks answer
 * differently.
 */
export interface RealWorldReportSection {
  total: ProviderAgreement;
  providers: Array<{ provider: string } & ProviderAgreement>;
  /** Optional in the report schema: reports written before rule classes existed still validate. */
  ruleClasses?: Array<{ ruleClass: RuleClass } & ProviderAgreement>;
  coverage?: {
    total: CoverageCounts;
    providers: Array<{ provider: string } & CoverageCounts>;
    kinds: Array<{ kind: string } & CoverageCounts>;
    unfired: string[];
    classGaps?: string[];
  };
  disagreements: Array<{ id: string; provider: string; contested: boolean; difference: string }>;
  /** The parameter tables against the catalogues (optional: older reports have none). */
  parameters?: ParameterCoverageSection;
}

export function realWorldReportSection(agreement: RealWorldAgreement): RealWorldReportSection {
  return {
    total: agreement.total,
    providers: Object.entries(agreement.byProvider)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([provider, counts]) => ({ provider, ...counts })),
    ruleClasses: RULE_CLASSES.map((ruleClass) => ({ ruleClass, ...agreement.byClass[ruleClass] })),
    coverage: {
      total: agreement.coverage.total,
      providers: Object.entries(agreement.coverage.byProvider)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([provider, counts]) => ({ provider, ...counts })),
      kinds: Object.entries(agreement.coverage.byKind)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, counts]) => ({ kind, ...counts })),
      unfired: agreement.coverage.unfired,
      classGaps: agreement.classes.missing,
    },
    disagreements: agreement.results
      .filter((r) => !r.agrees)
      .map((r) => ({ id: r.id, provider: r.provider, contested: r.contested, difference: r.difference })),
  };
}
