import { ProviderAnswerError } from '../../../shared/errors/provider-answer-error.js';
import { runScenario, type ScenarioTransport } from '../../../judge/conformance/run-scenario.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { specUrl } from '../../../shared/provider-specs/provider-spec.js';
import { builtInEngine } from '../../services/engine-adapters/built-in-engine.js';
import type { RealWorldCase } from '../../services/real-world-cases/real-world-case.js';
import { toolVersion } from '../../services/recorder/record-scenario.js';
import type { SecretValue } from '../../services/recorder/redact.js';
import { fillGroup, renameIds } from './case-setup.js';
import { compareWithLive, type Comparison } from './classify.js';
import { toCorpusForm } from './corpus-form.js';
import { estimateRequest, usageOf } from './estimate-cost.js';
import { issuedBlobs, type IssuedBlob } from './issued-blobs.js';
import { LiveClient, type LiveAnswer } from './live-client.js';
import type { LiveProvider } from './live-providers.js';
import { MockJudge } from './mock-judge.js';
import { bodyText } from './named-rule.js';
import { capOutput } from './output-cap.js';
import { pairToolResults } from './pair-tool-results.js';
import { planVerify, setupBody, type PlanInputs, type PlannedItem } from './plan-verify.js';
import { costOf } from './price-table.js';
import { RunStoppedError } from '../../../shared/errors/run-stopped-error.js';
import { SpendGuard, type Caps } from './spend-guard.js';
import type { VerifyResult } from './verify-result.js';
import { writeLiveCase, type LiveCaseInput } from './write-live-case.js';

export interface RunInputs extends PlanInputs {
  caps: Caps;
  /** Deadline of one request, body included (ms). */
  timeoutMs: number;
  /** Where the new real-world cases go (one file per disagreement). */
  casesDir: string;
  /** Every value redaction must scrub: each provider's key, AWS secrets, the user's extra variables. */
  secrets: readonly SecretValue[];
  now?: () => Date;
  onResult?: (result: VerifyResult) => void;
}

export interface RunOutput {
  items: PlannedItem[];
  results: VerifyResult[];
  stopped?: { reason: RunStoppedError['reason']; message: string };
  guard: SpendGuard;
  startedAt: string;
  finishedAt: string;
}

const ok = (status: number) => status >= 200 && status < 300;

/** An item's context while it runs. */
interface Running {
  item: PlannedItem;
  provider: LiveProvider;
  original: ProviderSpec;
}

/**
 * `verify --live`: the plan, sent. Items run one at a time, provider by provider; before each the
 * spend guard says whether the whole item fits the caps (and each request is checked again when
 * it goes out), so a cap stops the run between requests, never after one. A provider that stops
 * answering (deadline, dropped connection) is not asked again in this run.
 */
export async function runVerify(inputs: RunInputs): Promise<RunOutput> {
  const now = inputs.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const items = await planVerify(inputs);
  const guard = new SpendGuard(inputs.caps);
  const providers = new Map(inputs.providers.map((p) => [p.spec.id, p]));
  const specs = new Map(inputs.specs.map((s) => [s.id, s]));
  const client = new LiveClient(
    guard,
    inputs.timeoutMs,
    inputs.secrets,
    (id) => providers.get(id)?.fetch ?? globalThis.fetch,
  );
  const mock = new MockJudge(inputs.fixtures);
  const results: VerifyResult[] = [];
  const down = new Map<string, string>();
  let stopped: RunOutput['stopped'];
  const push = (r: VerifyResult) => {
    results.push(r);
    inputs.onResult?.(r);
  };
  const blank = (item: PlannedItem, outcome: VerifyResult['outcome'], detail: string): VerifyResult => ({
    provider: item.provider,
    kind: item.kind,
    id: item.id,
    model: item.model,
    outcome,
    detail,
    requests: 0,
  });

  for (const item of items) {
    if (stopped) {
      push(blank(item, 'not-run', stopped.message));
      continue;
    }
    if (item.skip) {
      push(blank(item, 'skipped', item.skip));
      continue;
    }
    if (item.needsKey) {
      push(blank(item, 'skipped', item.needsKey));
      continue;
    }
    if (down.has(item.provider)) {
      push(blank(item, 'skipped', down.get(item.provider)!));
      continue;
    }
    const over = guard.room(item.requests.length, item.cost);
    if (over) {
      stopped = {
        reason: over.startsWith('--max-time') ? 'time' : 'cap',
        message: `stopped before this item: it would pass ${over}`,
      };
      push(blank(item, 'not-run', stopped.message));
      continue;
    }
    const running: Running = { item, provider: providers.get(item.provider)!, original: specs.get(item.provider)! };
    const context = { inputs, client, mock, specs, now };
    const produced: VerifyResult[] = [];
    try {
      if (item.kind === 'case') produced.push(await runCase(running, context));
      else await runScenarioLive(running, context, produced);
    } catch (error) {
      if (!(error instanceof RunStoppedError)) throw error;
      stopped = { reason: error.reason, message: error.message };
      produced.push({
        ...blank(item, 'not-run', error.message),
        ...(item.kind === 'scenario' ? { call: produced.length } : {}),
      });
    }
    for (const r of produced) {
      if (r.outcome === 'error')
        down.set(item.provider, `${item.provider} stopped answering earlier in this run: ${r.detail}`);
      push(r);
    }
  }
  return { items, results, ...(stopped ? { stopped } : {}), guard, startedAt, finishedAt: now().toISOString() };
}

interface Context {
  inputs: RunInputs;
  client: LiveClient;
  mock: MockJudge;
  specs: ReadonlyMap<string, ProviderSpec>;
  now: () => Date;
}

function sendLive(
  running: Running,
  context: Context,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  maxTokens: number | undefined,
): Promise<LiveAnswer> {
  const price = running.item.price!;
  const p = running.provider;
  return context.client.send({
    provider: p.spec.id,
    ...(p.keyEnv ? { keyEnv: p.keyEnv } : {}),
    url,
    headers: { 'content-type': 'application/json', ...headers, ...p.auth },
    body,
    cost: estimateRequest(body, maxTokens, price).cost,
    reportedCost: (answer) => {
      const usage = usageOf(answer);
      return usage ? costOf(price, usage.inputTokens, usage.outputTokens) : undefined;
    },
  });
}

/** A result from a comparison, writing the new case file when the two disagree. */
async function compared(
  running: Running,
  context: Context,
  base: Omit<VerifyResult, 'outcome' | 'detail'>,
  comparison: Comparison,
  live: Extract<LiveAnswer, { kind: 'answer' }>,
  caseInput: Omit<LiveCaseInput, 'live' | 'category' | 'mock' | 'detail' | 'date' | 'tool' | 'endpointHost' | 'spec'>,
): Promise<VerifyResult> {
  if (comparison.kind === 'inconclusive')
    return {
      ...base,
      outcome: 'inconclusive',
      detail: comparison.reason,
      mock: comparison.mock,
      live: comparison.live,
    };
  const result: VerifyResult = {
    ...base,
    outcome: 'compared',
    category: comparison.category,
    rule: comparison.rule,
    ...(comparison.liveRule ? { liveRule: comparison.liveRule } : {}),
    detail: comparison.detail,
    mock: comparison.mock,
    live: comparison.live,
  };
  if (comparison.category === 'agrees') return result;
  const written = await writeLiveCase(
    {
      ...caseInput,
      spec: running.original,
      live: { status: live.status, body: live.body, text: live.text },
      category: comparison.category,
      mock: comparison.mock,
      detail: comparison.detail,
      endpointHost: new URL(running.provider.spec.endpoint.baseUrl).host,
      date: context.now(),
      tool: toolVersion(),
    },
    context.inputs.casesDir,
    context.inputs.secrets,
  );
  return 'file' in written ? { ...result, caseFile: written.file } : { ...result, caseRefused: written.refused };
}

async function runCase(running: Running, context: Context): Promise<VerifyResult> {
  const { item, original } = running;
  const c: RealWorldCase = item.loaded!.case;
  const cap = item.cap!;
  const body = c.request.body as Record<string, unknown>;
  let requests = 0;
  const base = () => ({ provider: c.provider, kind: 'case' as const, id: c.id, model: c.model, requests });
  const failed = (a: Extract<LiveAnswer, { kind: 'failed' }>): VerifyResult => ({
    ...base(),
    outcome: 'error',
    detail: a.message,
  });
  let live: Record<string, unknown> = body;
  const renames = new Map<string, string>();
  if (item.setup) {
    const { list, groups } = item.setup;
    const turns = [...(body[list] as unknown[])];
    for (const [i, g] of groups.entries()) {
      const setup = setupBody({ ...body, [list]: turns }, list, turns.slice(0, g.from), cap);
      const answer = await sendLive(running, context, item.requests[i]!.url, {}, setup.body, setup.maxTokens);
      requests++;
      if (answer.kind === 'failed') return failed(answer);
      if (!ok(answer.status))
        return {
          ...base(),
          outcome: 'inconclusive',
          detail: `setup call ${i + 1} was refused (${answer.status} "${bodyText(answer.body).replace(/\s+/g, ' ').slice(0, 160)}"), so the case's turn could not be obtained`,
        };
      const filled = fillGroup(turns.slice(g.from, g.to), issuedBlobs(original.family, answer.body), renames);
      if ('reason' in filled)
        return { ...base(), outcome: 'inconclusive', detail: `could not be set up live: ${filled.reason}` };
      turns.splice(g.from, g.to - g.from, ...filled.items);
    }
    live = renameIds({ ...body, [list]: turns }, renames) as Record<string, unknown>;
  }
  const sent = capOutput(live, cap, 'case');
  const corpus = capOutput(body, cap, 'case').body;
  const mockOutcome = await context.mock.judge(original, c.model, {
    body: corpus,
    ...(c.request.path ? { path: c.request.path } : {}),
    ...(c.request.stream ? { stream: true } : {}),
  });
  const answer = await sendLive(running, context, item.requests.at(-1)!.url, {}, sent.body, sent.maxTokens);
  requests++;
  if (answer.kind === 'failed') return failed(answer);
  const comparison = compareWithLive(
    mockOutcome,
    { status: answer.status, text: bodyText(answer.body) },
    original,
    context.specs,
  );
  return compared(running, context, base(), comparison, answer, {
    model: c.model,
    ...(c.upstream ? { upstream: c.upstream } : {}),
    request: { ...c.request, body: corpus },
    derivedFrom: { kind: 'case', id: c.id, sourceUrl: c.source.url, ruleClass: c.ruleClass },
    setupCalls: item.setup?.groups.length ?? 0,
  });
}

/**
 * A scenario played live through the built-in engine, routed as the real provider is (the spec's
 * own host, never the --base-url): each request goes to the live provider and, in the corpus's
 * form, to the mock; each is one result. The engine reads the live answers, so later turns carry
 * what the live provider really issued.
 */
async function runScenarioLive(running: Running, context: Context, out: VerifyResult[]): Promise<void> {
  const { item, provider: p, original } = running;
  const cap = item.cap!;
  const issued: IssuedBlob[] = [];
  let stop: RunStoppedError | undefined;
  const mockBase = new URL(original.endpoint.baseUrl).pathname.replace(/\/$/, '');
  const transport: ScenarioTransport = async (request, _spec, meta) => {
    const capped = capOutput(pairToolResults(original.family, request.body), cap, 'call');
    const corpus = toCorpusForm(capped.body, issued, original);
    const path = mockBase + request.path;
    const mockOutcome = await context.mock.judge(original, item.model, { body: corpus, path });
    const attempt = out.filter((r) => r.call === meta.call).length + 1;
    const base = {
      provider: item.provider,
      kind: 'scenario' as const,
      id: item.id,
      call: meta.call,
      attempt,
      model: item.model,
      requests: 1,
    };
    let answer: LiveAnswer;
    try {
      answer = await sendLive(
        running,
        context,
        p.spec.endpoint.baseUrl.replace(/\/$/, '') + request.path,
        request.headers,
        capped.body,
        capped.maxTokens,
      );
    } catch (error) {
      if (error instanceof RunStoppedError) stop = error;
      throw error;
    }
    if (answer.kind === 'failed') {
      out.push({ ...base, outcome: 'error', detail: answer.message });
      throw new ProviderAnswerError(answer.message);
    }
    const comparison = compareWithLive(
      mockOutcome,
      { status: answer.status, text: bodyText(answer.body) },
      original,
      context.specs,
    );
    const defaultPath = new URL(specUrl(original, item.model)).pathname;
    out.push(
      await compared(running, context, base, comparison, answer, {
        model: item.model,
        request: { body: corpus, ...(path !== defaultPath ? { path } : {}) },
        derivedFrom: { kind: 'scenario', id: item.id, call: meta.call, attempt },
        setupCalls: 0,
      }),
    );
    if (ok(answer.status)) issued.push(...issuedBlobs(original.family, answer.body));
    return { status: answer.status, headers: answer.headers, body: answer.body };
  };
  await runScenario(item.scenario!, original, {
    table: context.inputs.table,
    specs: context.specs,
    send: transport,
    engine: builtInEngine,
  });
  if (stop) throw stop;
  if (out.length === 0)
    out.push({
      provider: item.provider,
      kind: 'scenario',
      id: item.id,
      model: item.model,
      outcome: 'inconclusive',
      detail: 'the engine sent nothing',
      requests: 0,
    });
}
