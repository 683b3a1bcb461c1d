import type { FixtureStore } from '../../../provider/fixtures/fixture-store.js';
import { routesByOrigin, routesTransport } from '../../../provider/handlers/routes-transport.js';
import { providerRoutes } from '../../../provider/handlers/provider-routes.js';
import { runScenario, type ScenarioTransport } from '../../../judge/conformance/run-scenario.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { specUrl } from '../../../shared/provider-specs/provider-spec.js';
import { registerProviderSpecs } from '../../../shared/provider-specs/spec-registry.js';
import type { RouteTable } from '../../../shared/route-table/route-table.js';
import { scenarioAppliesTo } from '../../../shared/scenarios/applicability.js';
import type { Scenario } from '../../../shared/scenarios/scenario.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import type { LoadedCase } from '../../services/real-world-cases/real-world-case.js';
import { caseUrl } from '../../services/real-world-cases/replay-case.js';
import { isOpaqueField } from '../../services/recorder/opaque-fields.js';
import { planSetup, type SetupPlan } from './case-setup.js';
import { estimateRequest, type Estimate } from './estimate-cost.js';
import type { LiveProvider } from './live-providers.js';
import type { OutputCap } from './live-limits.js';
import { capOutput } from './output-cap.js';
import { priceFor, type PriceEntry, type PriceTable } from './price-table.js';

/** One request a run would send. */
export interface PlannedRequest {
  /** `setup 1`, `request`, `call 0`. */
  label: string;
  url: string;
  /** As planned: a case's placeholders stand where the setup calls put live blobs; a scenario call as the engine built it against the mocks. */
  body: unknown;
  maxTokens: number | undefined;
  estimate: Estimate;
}

export interface PlannedItem {
  kind: 'case' | 'scenario';
  id: string;
  provider: string;
  model: string;
  requests: PlannedRequest[];
  /** USD, the sum of the requests' estimates. */
  cost: number;
  /** Why nothing of it is sent; undefined when it is planned. */
  skip?: string;
  /** Its provider's key is not set: a dry run plans it anyway, a live run skips it. */
  needsKey?: string;
  loaded?: LoadedCase;
  setup?: Extract<SetupPlan, { kind: 'setup' }>;
  scenario?: Scenario;
  cap?: OutputCap;
  price?: PriceEntry;
}

export interface Selection {
  providers?: readonly string[];
  cases?: readonly string[];
  scenarios?: readonly string[];
}

export interface PlanInputs {
  providers: readonly LiveProvider[];
  /** Every provider spec as loaded (the mocks answer at these, never at an overridden base URL). */
  specs: readonly ProviderSpec[];
  table: RouteTable;
  cases: readonly LoadedCase[];
  scenarios: readonly Scenario[];
  fixtures: FixtureStore;
  prices: PriceTable;
  select?: Selection;
}

const sum = (requests: readonly PlannedRequest[]) => requests.reduce((s, r) => s + r.estimate.cost, 0);

/** Why a provider takes no request in this run, or undefined. A dry run looks past a missing key. */
function unreachable(p: LiveProvider | undefined, id: string): string | undefined {
  if (!p) return `no provider spec "${id}"`;
  if (p.unavailable && !p.missingKey) return p.unavailable;
  if (!p.limits.cap) return `no output cap is known for the ${p.spec.family} family (specs/live-limits.json)`;
  return undefined;
}

/** A setup call's body: the case's request cut before the turn to obtain, never streamed. */
export function setupBody(body: Record<string, unknown>, list: string, before: unknown[], cap: OutputCap) {
  const cut: Record<string, unknown> = { ...body, [list]: before };
  delete cut.stream;
  return capOutput(cut, cap, 'setup');
}

function planCase(loaded: LoadedCase, p: LiveProvider | undefined, prices: PriceTable): PlannedItem {
  const c = loaded.case;
  const item: PlannedItem = {
    kind: 'case',
    id: c.id,
    provider: c.provider,
    model: c.model,
    requests: [],
    cost: 0,
    loaded,
  };
  const why = unreachable(p, c.provider);
  if (why || !p) return { ...item, skip: why };
  const cap = p.limits.cap!;
  const price = priceFor(prices, p.spec.id, c.model);
  if (!price) return { ...item, skip: `no price for ${c.model} on ${c.provider} in specs/prices.json` };
  const setup = planSetup(c.request.body, c.provider);
  if (setup.kind === 'impossible') return { ...item, skip: `cannot be set up live: ${setup.reason}` };
  if (!isPlainObject(c.request.body)) return { ...item, skip: 'its request body is not a JSON object' };
  const body = c.request.body;
  const requests: PlannedRequest[] = [];
  if (setup.kind === 'setup') {
    const items = body[setup.list] as unknown[];
    setup.groups.forEach((g, i) => {
      const s = setupBody(body, setup.list, items.slice(0, g.from), cap);
      requests.push({
        label: `setup ${i + 1}`,
        url: caseUrl(p.spec, { ...c, request: { ...c.request, stream: false } }),
        body: s.body,
        maxTokens: s.maxTokens,
        estimate: estimateRequest(s.body, s.maxTokens, price),
      });
    });
  }
  const final = capOutput(body, cap, 'case');
  requests.push({
    label: 'request',
    url: caseUrl(p.spec, c),
    body: final.body,
    maxTokens: final.maxTokens,
    estimate: estimateRequest(final.body, final.maxTokens, price),
  });
  return {
    ...item,
    requests,
    cost: sum(requests),
    cap,
    price,
    ...(setup.kind === 'setup' ? { setup } : {}),
    ...(p.missingKey ? { needsKey: p.unavailable } : {}),
  };
}

/** Blobs an appended (scripted) assistant turn carries: the mock issued them, the live provider never did. */
function appendsBlobs(scenario: Scenario): boolean {
  const has = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(has);
    if (!isPlainObject(value)) return false;
    return Object.entries(value).some(
      ([k, v]) => (isOpaqueField(k, value) && typeof v === 'string' && v !== '') || has(v),
    );
  };
  return scenario.steps.some((s) => 'append' in s && s.append.role === 'assistant' && has(s.append));
}

/**
 * A scenario's calls as the built-in engine makes them against the mocks: the bodies a live run
 * starts from (live answers then differ, so later bodies are estimated with room for each earlier
 * answer at its full cap).
 */
async function planScenario(
  scenario: Scenario,
  p: LiveProvider | undefined,
  original: ProviderSpec,
  inputs: PlanInputs,
  mockSend: ScenarioTransport,
): Promise<PlannedItem> {
  const model = original.target.model;
  const item: PlannedItem = {
    kind: 'scenario',
    id: scenario.id,
    provider: original.id,
    model,
    requests: [],
    cost: 0,
    scenario,
  };
  const why = unreachable(p, original.id);
  if (why || !p) return { ...item, skip: why };
  if (scenario.steps.some((s) => 'call' in s && s.call.via))
    return { ...item, skip: 'switches provider mid-conversation (call.via); verify plays one live provider at a time' };
  if (appendsBlobs(scenario))
    return {
      ...item,
      skip: 'appends assistant turns holding blobs the mock issued, which mean nothing to the live provider',
    };
  const cap = p.limits.cap!;
  const price = priceFor(inputs.prices, p.spec.id, model);
  if (!price) return { ...item, skip: `no price for ${model} on ${original.id} in specs/prices.json` };
  const seen: Array<{ call: number; body: Record<string, unknown>; path: string }> = [];
  const capture: ScenarioTransport = (request, spec, meta) => {
    if (!seen.some((s) => s.call === meta.call)) seen.push({ call: meta.call, body: request.body, path: request.path });
    return mockSend(request, spec, meta);
  };
  await runScenario(scenario, original, {
    table: inputs.table,
    specs: new Map(inputs.specs.map((s) => [s.id, s])),
    send: capture,
    engine: builtInEngine,
  });
  const calls = scenario.steps.filter((s) => 'call' in s).length;
  const requests: PlannedRequest[] = [];
  let earlierOutput = 0;
  for (let call = 0; call < calls; call++) {
    const known = seen.find((s) => s.call === call) ?? seen.at(-1);
    const capped = capOutput(known?.body ?? {}, cap, 'call');
    const base = estimateRequest(capped.body, capped.maxTokens, price);
    const inputTokens = base.inputTokens + earlierOutput;
    const estimate = {
      ...base,
      inputTokens,
      cost: base.cost + (earlierOutput * price.input) / 1_000_000,
    };
    earlierOutput += base.outputTokens;
    requests.push({
      label: `call ${call}`,
      url: known ? p.spec.endpoint.baseUrl.replace(/\/$/, '') + known.path : specUrl(p.spec, model),
      body: capped.body,
      maxTokens: capped.maxTokens,
      estimate,
    });
  }
  return {
    ...item,
    requests,
    cost: sum(requests),
    cap,
    price,
    ...(p.missingKey ? { needsKey: p.unavailable } : {}),
  };
}

/**
 * What a run sends, item by item, before anything is sent: every real-world case of the selected
 * providers, then every scenario that applies to them, with each request's body, cap and estimated
 * cost, or the reason an item is skipped. `--dry-run` prints this; a live run follows it.
 */
export async function planVerify(inputs: PlanInputs): Promise<PlannedItem[]> {
  const select = inputs.select ?? {};
  const onlyCases = select.cases !== undefined && select.scenarios === undefined;
  const onlyScenarios = select.scenarios !== undefined && select.cases === undefined;
  const wanted = (id: string) => !select.providers || select.providers.includes(id);
  const byId = new Map(inputs.providers.map((p) => [p.spec.id, p]));
  registerProviderSpecs(inputs.specs);
  const mockSend = routesTransport(
    routesByOrigin(
      inputs.specs.map((spec) => ({
        origin: new URL(spec.endpoint.baseUrl).origin,
        routes: providerRoutes(spec, inputs.fixtures),
      })),
    ),
  );
  const items: PlannedItem[] = [];
  const cases = onlyScenarios
    ? []
    : inputs.cases.filter((c) => wanted(c.case.provider) && (!select.cases || select.cases.includes(c.case.id)));
  const providerOrder = [...inputs.specs.map((s) => s.id), ...new Set(cases.map((c) => c.case.provider))];
  for (const id of [...new Set(providerOrder)]) {
    for (const loaded of cases.filter((c) => c.case.provider === id))
      items.push(planCase(loaded, byId.get(id), inputs.prices));
    const spec = inputs.specs.find((s) => s.id === id);
    if (onlyCases || !spec || !wanted(id)) continue;
    for (const scenario of inputs.scenarios) {
      if (select.scenarios && !select.scenarios.includes(scenario.id)) continue;
      if (!scenarioAppliesTo(scenario, spec)) continue;
      items.push(await planScenario(scenario, byId.get(id), spec, inputs, mockSend));
    }
  }
  return items;
}
