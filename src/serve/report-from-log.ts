import { BEHAVIOURS, cellStatus, type Behaviour, type CellVerdict, type Check, type ConformanceRun } from '../conformance/verdict.js';
import { FixtureStore } from '../mocks/fixture-store.js';
import { defaultProvidersDir, loadProviderSpecs } from '../providers/load-provider-specs.js';
import type { ProviderSpec } from '../providers/provider-spec.js';
import { defaultRoutesFile, loadRouteTable } from '../routes/load-route-table.js';
import { buildCompatibilityReport } from '../report/build-compatibility-report.js';
import type { CompatibilityReport } from '../report/compatibility-report.js';
import { readServeLog, type ServeLogEntry } from './serve-log.js';

/** What a client's requests alone can show; the rest (retention, fallback, history) happens inside the client. */
const OBSERVABLE: Behaviour[] = ['provider-accepts', 'strict-schema', 'must-echo', 'signatures-verbatim'];

/** Does this provider's mock judge `behaviour` at all? Only then is the absence of a finding a pass. */
function judges(spec: ProviderSpec | undefined, behaviour: Behaviour): boolean {
  if (behaviour === 'provider-accepts') return true;
  if (!spec) return false;
  if (behaviour === 'strict-schema') return spec.request.unknownFieldRejection !== undefined;
  if (behaviour === 'must-echo') return spec.echo.some((r) => r.level === 'required');
  if (behaviour === 'signatures-verbatim') return Object.values(spec.rejections).some((r) => r.kind === 'invalid-signature' || r.kind === 'missing-signature');
  return false;
}

/**
 * Turns a serve log into a run: one cell per (scenario, provider) the client talked to, judged only on
 * what the mocks saw. A request log has no history, so unobservable behaviours are n/a, never pass.
 */
export function runFromLog(entries: ServeLogEntry[], specs: ProviderSpec[], routesFile: string): ConformanceRun {
  const byId = new Map(specs.map((s) => [s.id, s]));
  const groups = new Map<string, ServeLogEntry[]>();
  for (const e of entries) {
    const key = `${e.scenario ?? 'black-box'}\u0000${e.provider}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const fixtures = new FixtureStore();
  const cells: CellVerdict[] = [...groups.values()].map((group) => {
    const first = group[0]!;
    const spec = byId.get(first.provider);
    const scenario = first.scenario ?? 'black-box';
    const checks: Check[] = BEHAVIOURS.map((behaviour) => {
      if (!OBSERVABLE.includes(behaviour)) return { behaviour, status: 'n/a', detail: '' };
      const broken = group.filter((e) => (behaviour === 'provider-accepts' ? e.status < 200 || e.status >= 300 : e.findings.some((f) => f.rule === behaviour)));
      if (broken.length > 0) {
        const detail = broken
          .map((e) => {
            const findings = e.findings.filter((f) => behaviour === 'provider-accepts' || f.rule === behaviour);
            return `request #${e.seq} (call ${e.call}, ${e.method} ${e.path}) answered ${e.status}${findings.length ? `: ${findings.map((f) => f.detail ?? `${f.rule} -> ${f.rejection}`).join('; ')}` : ''}`;
          })
          .join('\n');
        return { behaviour, status: 'fail', detail };
      }
      if (!judges(spec, behaviour)) return { behaviour, status: 'n/a', detail: '' };
      return { behaviour, status: 'pass', detail: `${group.length} request${group.length === 1 ? '' : 's'} from the client, none broke it` };
    });
    const cell: CellVerdict = {
      scenario,
      target: first.provider,
      route: first.route,
      tier: first.tier,
      family: first.family,
      status: cellStatus(checks),
      checks,
      exchanges: group.map((e) => ({
        call: e.call,
        provider: e.provider,
        route: e.route,
        url: e.path,
        status: e.status,
        sentFields: e.sentFields,
        violations: e.findings.map((f) => f.rule),
        attempt: 1,
      })),
    };
    const fixture = first.scenario ? fixtures.get(first.provider, first.scenario) : undefined;
    if (fixture) cell.fixture = { path: fixture.path, provenance: fixture.fixture.provenance.kind };
    return cell;
  });
  return { routesFile, startedAt: entries[0]!.time, durationMs: 0, cells };
}

/** `report --from-log FILE`: the same report as the matrix writes, from what a black-box client sent. */
export function reportFromLog(file: string, options: { routesFile?: string; providersDir?: string } = {}): CompatibilityReport {
  const routesFile = options.routesFile ?? defaultRoutesFile();
  const table = loadRouteTable(routesFile);
  const specs = loadProviderSpecs(options.providersDir ?? defaultProvidersDir());
  const run = runFromLog(readServeLog(file), specs, routesFile);
  return buildCompatibilityReport(run, { routeOrder: table.routes.map((r) => r.id), source: 'log' });
}
