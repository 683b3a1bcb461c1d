import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { loadScenarios } from '../../../shared/scenarios/load-scenarios.js';
import type { LoadedCase, RealWorldCase } from '../../services/real-world-cases/real-world-case.js';
import { buildDriftReport, writeDriftReport, type DriftReport } from './drift-report.js';
import { startFakeLiveProvider, type FakeLiveProvider, type FakeMode } from './fake-live-provider.test-helper.js';
import { loadLiveLimits } from './live-limits.js';
import { resolveLiveProviders } from './live-providers.js';
import { loadPriceTable } from './price-table.js';
import { runVerify, type RunOutput } from './run-verify.js';
import type { Caps } from './spend-guard.js';

export const specs = loadProviderSpecs();
export const table = loadRouteTable();
export const scenarios = loadScenarios();
export const fixtures = new FixtureStore();
export const prices = loadPriceTable();
export const limits = loadLiveLimits();

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A key-shaped secret assembled at run time: no key-like literal sits in the source. */
export const newKey = () =>
  ['sk', 'live', Array.from({ length: 32 }, () => ALNUM[Math.floor(Math.random() * ALNUM.length)]).join('')].join('-');

export function liveCase(id: string, provider: string, model: string, body: unknown): LoadedCase {
  const c: RealWorldCase = {
    id,
    ruleClass: 'reasoning-echo',
    source: { url: 'https://example.com/test-case', kind: 'docs' },
    framework: 'test',
    provider,
    model,
    request: { body },
    outcome: { accepted: true },
  };
  return { case: c, path: `specs/real-world/${id}.json` };
}

export interface VerifyAgainst {
  run: RunOutput;
  report: DriftReport;
  fake: FakeLiveProvider;
  out: string;
  key: string;
}

/** runVerify against a fake started for this call, the provider's base URL moved there by --base-url. */
export async function verifyAgainst(
  mode: FakeMode,
  options: {
    provider?: string;
    cases?: LoadedCase[];
    scenarios?: string[];
    caps?: Partial<Caps>;
    timeoutMs?: number;
    plant?: boolean;
    fake?: FakeLiveProvider;
  } = {},
): Promise<VerifyAgainst> {
  const provider = options.provider ?? 'deepseek';
  const key = newKey();
  const fake = options.fake ?? (await startFakeLiveProvider(mode, options.plant ? { plant: key } : {}));
  const spec = specs.find((s) => s.id === provider)!;
  const env = { [spec.secretEnv!]: key };
  const { providers, secrets } = resolveLiveProviders([spec], limits, new Map([[provider, fake.url]]), env);
  const out = mkdtempSync(join(tmpdir(), 'rr-verify-'));
  const timeoutMs = options.timeoutMs ?? 5000;
  try {
    const run = await runVerify({
      providers,
      specs,
      table,
      cases: options.cases ?? [],
      scenarios: scenarios.filter((s) => (options.scenarios ?? []).includes(s.id)),
      fixtures,
      prices,
      select: { providers: [provider] },
      caps: { maxRequests: 50, maxCost: 1, maxTimeMs: 60_000, ...options.caps },
      timeoutMs,
      casesDir: join(out, 'real-world'),
      secrets,
    });
    const report = buildDriftReport(run, timeoutMs);
    writeDriftReport(report, out, secrets);
    return { run, report, fake, out, key };
  } finally {
    if (!options.fake) await fake.close();
  }
}
