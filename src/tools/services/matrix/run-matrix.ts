import type { EngineOperation, EngineUnderTest } from '../../../judge/engine-under-test.js';
import { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { providerRoutes } from '../../../provider/handlers/provider-routes.js';
import { defaultProvidersDir, loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { registerProviderSpecs } from '../../../shared/provider-specs/spec-registry.js';
import { defaultRoutesFile, loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import type { RoutePolicy, RouteTable } from '../../../shared/route-table/route-table.js';
import { defaultScenariosDir, loadScenarios } from '../../../shared/scenarios/load-scenarios.js';
import type { Scenario } from '../../../shared/scenarios/scenario.js';
import { retentionChecks } from '../../../judge/retention/retention-checks.js';
import { scenarioAppliesTo } from '../../../shared/scenarios/applicability.js';
import { policyFor } from '../../../shared/route-table/policy-for.js';
import { runScenario } from '../../../judge/conformance/run-scenario.js';
import { routesByOrigin, routesTransport } from '../../../provider/handlers/routes-transport.js';
import { assessTable } from '../../../judge/harm/judge-harm.js';
import { mergeHarm } from '../../../judge/harm/merge-harm.js';
import { keysOfShard, type ShardItem } from './deal-shards.js';
import type { ShardSpec } from './shard-spec.js';
import {
  BEHAVIOURS,
  type Behaviour,
  type CellVerdict,
  type ConformanceRun,
} from '../../../judge/conformance/verdict.js';

export interface MatrixInputs {
  routesFile?: string;
  table?: RouteTable;
  providersDir?: string;
  scenariosDir?: string;
  fixturesDir?: string;
  /** Only cells whose route is in this set (the gate narrows to affected routes). */
  routes?: ReadonlySet<string>;
  /** Only this shard's scenario runs (`--shard i/N`; docs/decisions/0072). */
  shard?: ShardSpec;
  stream?: boolean;
  /** Deadline per exchange in ms (body included); a stalled answer fails its cell instead of hanging the run. */
  timeoutMs?: number;
  /** The mocks refuse contested rules instead of answering as their lenient side (docs/decisions/0044). */
  strict?: boolean;
  /** `false` skips the compaction / branch / resume checks (they run when the engine exposes its storage). */
  retention?: false;
  onCell?: (done: number, total: number, cell: CellVerdict) => void;
  /** `false` skips the harm judge (it reads this project's table against the specs: nothing an external engine does). */
  harm?: false;
  /**
   * The engine under test, injected by the caller (the built-in one: src/tools/services/engine-adapters/built-in-engine.ts;
   * `check --engine` passes an external one).
   */
  engine: EngineUnderTest;
}

export interface LoadedInputs {
  routesFile: string;
  table: RouteTable;
  specs: ProviderSpec[];
  scenarios: Scenario[];
  fixtures: FixtureStore;
}

/** Loads and validates every input first, so bad input fails (exit 2) before anything runs. */
export function loadMatrixInputs(inputs: Omit<MatrixInputs, 'engine'> = {}): LoadedInputs {
  const routesFile = inputs.routesFile ?? defaultRoutesFile();
  return {
    routesFile,
    table: inputs.table ?? loadRouteTable(routesFile),
    specs: loadProviderSpecs(inputs.providersDir ?? defaultProvidersDir()),
    scenarios: loadScenarios(inputs.scenariosDir ?? defaultScenariosDir()),
    fixtures: new FixtureStore(inputs.fixturesDir),
  };
}

/** The key a scenario run is sharded by: its scenario and target, never the order they were found in. */
export const scenarioRunKey = (scenario: string, target: string): string => `${scenario}@${target}`;

/**
 * Every scenario run of the matrix (its targets narrowed to `routes`) as a shard item: runs whose scenario applies to
 * the target are the heavy ones; the others are not-applicable runs that cost nothing.
 */
export function matrixItems(loaded: LoadedInputs, routes?: ReadonlySet<string>): ShardItem[] {
  return loaded.specs
    .filter((s) => !routes || routes.has(policyFor(loaded.table, s).routeId))
    .flatMap((spec) =>
      loaded.scenarios.map((scenario) => ({
        key: scenarioRunKey(scenario.id, spec.id),
        heavy: scenarioAppliesTo(scenario, spec),
      })),
    );
}

function notApplicable(scenario: Scenario, spec: ProviderSpec, policy: RoutePolicy): CellVerdict {
  return {
    scenario: scenario.id,
    target: spec.id,
    route: policy.routeId,
    tier: policy.tier,
    family: policy.family,
    status: 'n/a',
    checks: BEHAVIOURS.map((behaviour) => ({ behaviour, status: 'n/a', detail: '' })),
    exchanges: [],
  };
}

/**
 * Every scenario against every provider target, through the mocks. Cells run one at a time: they are milliseconds each.
 */
export async function runMatrix(
  inputs: MatrixInputs,
  loaded: LoadedInputs = loadMatrixInputs(inputs),
): Promise<ConformanceRun> {
  const started = Date.now();
  const { table, specs, scenarios, fixtures } = loaded;
  const bySpec = new Map(specs.map((s) => [s.id, s]));
  // Each target's policy, resolved once: most cells of a run are not applicable and only name it.
  const policies = new Map(specs.map((s) => [s.id, policyFor(table, s)]));
  const targets = specs.filter((s) => !inputs.routes || inputs.routes.has(policies.get(s.id)!.routeId));
  // What the table does to each provider, read off the specs before anything runs.
  const harm =
    inputs.harm === false ? [] : assessTable(table, specs).filter((a) => targets.some((t) => t.id === a.provider));
  const retention =
    inputs.retention !== false && (inputs.engine.storage || inputs.engine.compaction)
      ? retentionChecks(inputs.engine, table)
      : undefined;
  // Every provider's mock routes, in spec order, answering the run's requests in process (see routesTransport);
  // a request is offered only to the routes of its URL's origin, the only ones whose patterns can match it.
  // Gateway specs consult their upstreams' rules by id.
  registerProviderSpecs(specs);
  const send = routesTransport(
    routesByOrigin(
      specs.map((spec) => ({
        origin: new URL(spec.endpoint.baseUrl).origin,
        routes: providerRoutes(spec, fixtures, inputs.strict ? { strict: true } : {}),
      })),
    ),
    inputs.timeoutMs,
  );
  const cells: CellVerdict[] = [];
  const notJudged = new Map<EngineOperation, { behaviours: Set<Behaviour>; cells: number }>();
  const mine = inputs.shard ? keysOfShard(matrixItems(loaded, inputs.routes), inputs.shard) : undefined;
  const total = mine ? mine.size : targets.length * scenarios.length;
  try {
    for (const spec of targets) {
      for (const scenario of scenarios) {
        if (mine && !mine.has(scenarioRunKey(scenario.id, spec.id))) continue;
        let cell: CellVerdict;
        if (scenarioAppliesTo(scenario, spec)) {
          const ran = await runScenario(scenario, spec, {
            table,
            specs: bySpec,
            fixtures,
            ...(inputs.stream ? { stream: true } : {}),
            send,
            engine: inputs.engine,
            ...(retention ? { retention: retention.run } : {}),
            checkSessions: true,
          });
          for (const n of ran.notJudged) {
            const entry = notJudged.get(n.operation) ?? { behaviours: new Set<Behaviour>(), cells: 0 };
            n.behaviours.forEach((b) => entry.behaviours.add(b));
            entry.cells += 1;
            notJudged.set(n.operation, entry);
          }
          cell = ran.verdict;
        } else cell = notApplicable(scenario, spec, policies.get(spec.id)!);
        cells.push(mergeHarm(cell, harm));
        inputs.onCell?.(cells.length, total, cells[cells.length - 1]!);
      }
    }
  } finally {
    await retention?.close();
  }
  return {
    routesFile: loaded.routesFile,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    cells,
    harm,
    ...(notJudged.size > 0
      ? {
          notJudged: [...notJudged].map(([operation, n]) => ({
            operation,
            behaviours: [...n.behaviours],
            cells: n.cells,
          })),
        }
      : {}),
  };
}
