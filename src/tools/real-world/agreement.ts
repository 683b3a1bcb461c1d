import type { HttpHandler } from 'msw';
import { FixtureStore } from '../../provider/fixtures/fixture-store.js';
import { providerHandlers } from '../../provider/handlers/provider-handlers.js';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';
import { loadRealWorldCases, type LoadedCase } from './real-world-case.js';
import { compareOutcomes, describeMock, replayCase, type MockOutcome } from './replay-case.js';

export interface CaseResult {
  id: string;
  path: string;
  provider: string;
  accepted: boolean;
  /** The case says public sources disagree, or the mock answered with a rule its spec marks contested. */
  contested: boolean;
  /** Who says so: the case file, or the provider spec behind the mock's finding. */
  contestedBy?: 'case' | 'spec';
  agrees: boolean;
  /** Empty when the mock agrees; else `real=..., mock=...`. */
  difference: string;
  mock: string;
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

/**
 * Replays every case of specs/real-world/ against the provider mocks and counts, per provider,
 * how often the mock answers as the real provider did. A case naming no known provider spec is a
 * disagreement (the mock cannot answer it), never skipped.
 */
export async function realWorldAgreement(
  options: { cases?: LoadedCase[]; specs?: ProviderSpec[]; fixtures?: FixtureStore; strict?: boolean } = {},
): Promise<RealWorldAgreement> {
  const cases = options.cases ?? loadRealWorldCases();
  const specs = new Map((options.specs ?? loadProviderSpecs()).map((s) => [s.id, s]));
  const fixtures = options.fixtures ?? new FixtureStore();
  const handlers = new Map<string, HttpHandler[]>();
  const results: CaseResult[] = [];
  for (const { case: c, path } of cases) {
    const spec = specs.get(c.provider);
    let mock: MockOutcome | undefined;
    if (spec) {
      let list = handlers.get(spec.id);
      if (!list)
        handlers.set(spec.id, (list = providerHandlers(spec, fixtures, options.strict ? { strict: true } : {})));
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
      accepted: 'accepted' in c.outcome,
      contested: contestedBy !== undefined,
      ...(contestedBy ? { contestedBy } : {}),
      agrees: verdict.agrees,
      difference: verdict.difference,
      mock: mock ? describeMock(mock) : 'no spec',
    });
  }
  const byProvider: Record<string, ProviderAgreement> = {};
  const total = empty();
  for (const r of results) {
    count((byProvider[r.provider] ??= empty()), r);
    count(total, r);
  }
  return { total, byProvider, results };
}

/** One line per provider, for test output and the CLI: `deepseek  5/6 agree (1 contested warning)`. */
export function formatAgreement(agreement: RealWorldAgreement): string {
  const line = (name: string, a: ProviderAgreement) =>
    `${name.padEnd(20)} ${String(a.agree).padStart(3)}/${String(a.cases).padEnd(3)} agree  (${a.accepted} accepted, ${a.rejected} rejected)` +
    (a.disagree ? `  ${a.disagree} disagree` : '') +
    (a.contestedDisagree ? `  ${a.contestedDisagree} contested warning${a.contestedDisagree > 1 ? 's' : ''}` : '');
  return [
    ...Object.entries(agreement.byProvider)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([p, a]) => line(p, a)),
    line('total', agreement.total),
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
  disagreements: Array<{ id: string; provider: string; contested: boolean; difference: string }>;
}

export function realWorldReportSection(agreement: RealWorldAgreement): RealWorldReportSection {
  return {
    total: agreement.total,
    providers: Object.entries(agreement.byProvider)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([provider, counts]) => ({ provider, ...counts })),
    disagreements: agreement.results
      .filter((r) => !r.agrees)
      .map((r) => ({ id: r.id, provider: r.provider, contested: r.contested, difference: r.difference })),
  };
}
