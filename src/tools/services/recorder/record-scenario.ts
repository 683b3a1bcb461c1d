import { RecordingFailedError } from '../../../shared/errors/recording-failed-error.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario, readResponse, type ScenarioTransport } from '../../../judge/conformance/run-scenario.js';
import { builtInEngine } from '../engine-adapters/built-in-engine.js';
import type { Check } from '../../../judge/conformance/verdict.js';
import { familyFor } from '../../../engine/families/registry.js';
import type { Fixture, FixtureExchange } from '../../../provider/fixtures/fixture-store.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { projectRoot } from '../../../shared/project-root.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import type { RoutePolicy, RouteTable } from '../../../shared/route-table/route-table.js';
import type { Scenario } from '../../../shared/scenarios/scenario.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { authHeaders } from './auth-headers.js';
import { ExchangeCapture, type CapturedExchange } from './capture-fetch.js';
import { endpointUrl } from './endpoint-url.js';
import { SpoolDir } from './event-spool.js';
import { renderCheckedFixture, writeFixtureFile } from './fixture-file.js';
import type { LiveTarget } from './live-target.js';
import { fetchFollowingSafely } from './probe/probe-route.js';
import { redactText, type SecretValue } from './redact.js';
import { FileWriteError, fsErrorCode } from '../../../shared/errors/file-write-error.js';
import { shownFileName } from '../../../shared/files/shown-file-name.js';

export interface RecordProgress {
  /** Calls answered so far, of the scenario's total. */
  turns?(done: number, total: number): void;
  /** Body bytes received so far, all calls together. */
  bytes?(total: number): void;
}

export interface RecordScenarioArgs {
  live: LiveTarget;
  scenario: Scenario;
  table: RouteTable;
  stream: boolean;
  apiKey?: string;
  /** Every value redaction must scrub (the key in use, the spec's key variable). */
  secrets: SecretValue[];
  /** Where the fixture goes; nothing is created there unless the whole recording succeeded. */
  file: string;
  /** Last word before the rename (the mode check again: the file may have appeared meanwhile). */
  mayWrite?: () => string | undefined;
  progress?: RecordProgress;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Where streamed answers wait (default: a new folder under the OS temp dir); removed at the end. */
  spools?: SpoolDir;
}

export interface RecordResult {
  file: string;
  exchanges: number;
  bytes: number;
  /** What the conformance checks said about the live run (a stale route shows up here). */
  notes: string[];
}

export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return `${pkg.name} ${pkg.version}`;
}

/** A spec for endpoints nobody has written one for yet: routing and the family are all a recording needs. */
function liveSpec(live: LiveTarget): ProviderSpec {
  const base: ProviderSpec = live.spec ?? {
    id: live.id,
    label: live.id,
    family: live.family,
    endpoint: { baseUrl: live.baseUrl, path: '/' },
    target: { provider: live.target.provider, model: live.target.model },
    request: { schema: {} },
    echo: [],
    rejections: {},
    response: { carriers: [] },
    sources: [live.baseUrl],
  };
  return {
    ...base,
    family: live.family,
    endpoint: { ...base.endpoint, baseUrl: live.baseUrl },
    target: { provider: live.target.provider, model: live.target.model },
  };
}

/** What the family reads from the answer; anything well-formed it skipped is said in `notes`. */
function carriersOf(
  record: CapturedExchange,
  policy: RoutePolicy,
  notes: string[],
  call: number,
): Record<string, unknown> | undefined {
  const family = familyFor(policy.family);
  const { response } = record.exchange;
  try {
    if (record.events) {
      if (!family.streamCarriers) return undefined;
      const reader = family.streamCarriers(policy);
      for (const event of record.events) reader.acceptEvent(event);
      const answer = reader.end();
      notes.push(...[...reader.notes, ...(answer.notes ?? [])].map((n) => `call ${call}: ${n}`));
      return answer.carriers as Record<string, unknown>;
    }
    const answer = family.fromResponse(response.body, policy);
    notes.push(...(answer.notes ?? []).map((n) => `call ${call}: ${n}`));
    return answer.carriers as Record<string, unknown>;
  } catch {
    // An answer the family cannot read is still what the provider sent; the fixture keeps it as is.
    return undefined;
  }
}

const isOk = (status: number) => status >= 200 && status < 300;

function failedChecks(checks: Check[]): string[] {
  return checks
    .filter((c) => c.status === 'fail')
    .flatMap((c) => c.detail.split('\n').map((d) => `${c.behaviour}: ${d}`));
}

/**
 * Drives the scenario against the live endpoint through the conformance runner (so each later
 * turn carries what the route reads from the earlier answer), capturing every exchange, and writes
 * one fixture: redacted, swept, schema-checked, atomically. Any failure leaves the disk untouched.
 */
export async function recordScenario(args: RecordScenarioArgs): Promise<RecordResult> {
  const spools = args.spools ?? new SpoolDir();
  try {
    return await recordWithSpools(args, spools);
  } finally {
    spools.dispose();
  }
}

async function recordWithSpools(args: RecordScenarioArgs, spools: SpoolDir): Promise<RecordResult> {
  const { live, scenario } = args;
  const via = scenario.steps.find((s) => 'call' in s && s.call.via);
  if (via) {
    throw new InputError(
      `scenario ${scenario.id}`,
      '/steps',
      'switches provider mid-conversation (call.via), which needs a second live endpoint',
      'record a scenario that stays on one provider',
    );
  }
  const total = scenario.steps.filter((s) => 'call' in s).length;
  // Redirects are followed by hand so no credential header reaches another origin (probe-route.ts).
  const network = args.fetch ?? ((input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init));
  const safeFetch: typeof fetch = (input, init) => fetchFollowingSafely(network, String(input), init ?? {});
  const capture = new ExchangeCapture({
    fetch: safeFetch,
    spool: spools.create,
    onBytes: (n) => args.progress?.bytes?.(n),
  });
  const callOf = new Map<CapturedExchange, number>();
  const spec = liveSpec(live);
  const auth = authHeaders(live.family, args.apiKey, live.target.host);

  const send: ScenarioTransport = async (request, _spec, meta) => {
    const first = capture.captured.length;
    const response = await capture.fetch(endpointUrl(live.baseUrl, request.path), {
      method: request.method,
      headers: { ...request.headers, ...auth },
      body: JSON.stringify(request.body),
    });
    for (const record of capture.captured.slice(first)) callOf.set(record, meta.call);
    const read = await readResponse(response);
    args.progress?.turns?.(meta.call + (isOk(read.status) ? 1 : 0), total);
    return read;
  };

  args.progress?.turns?.(0, total);
  const run = await runScenario(scenario, spec, {
    table: args.table,
    specs: new Map([[spec.id, spec]]),
    stream: args.stream,
    send,
    engine: builtInEngine,
  });

  capture.checkStreams();
  const broken = capture.captured.find((c) => c.state !== 'complete');
  const code = fsErrorCode(broken?.cause);
  // Our spool failed, not the provider (a full disk): one line and exit 2, naming where and what to do.
  if (broken && code)
    throw new FileWriteError(
      spools.root,
      code,
      `spooling the streamed answer of call ${callOf.get(broken) ?? '?'}`,
      'streamed answers wait in the temp folder (TMPDIR) until the fixture is written: free space there, or point TMPDIR at a folder with room; nothing was written',
    );
  if (broken)
    throw new RecordingFailedError(
      redactText(
        `call ${callOf.get(broken) ?? '?'} to ${broken.exchange.request?.url ?? live.baseUrl}: ${broken.error ?? 'the answer was not read to its end'}`,
        args.secrets,
      ),
    );

  // One exchange per call, the attempt that answered: the mocks answer call N with exchange N, and a
  // refused first attempt (the fallback's) is the provider's rule, which the mocks enforce from specs.
  const exchanges: FixtureExchange[] = [];
  const streams = new Map<number, Iterable<SseEvent>>();
  const readNotes: string[] = [];
  for (let call = 0; call < total; call++) {
    const attempts = capture.captured.filter((c) => callOf.get(c) === call);
    const last = attempts.at(-1);
    if (!last) {
      const why = failedChecks(run.verdict.checks).join('; ') || 'the scenario stopped before it';
      throw new RecordingFailedError(`call ${call} of ${total} was never answered: ${why}`);
    }
    const status = last.exchange.response.status;
    if (!isOk(status)) {
      const body = last.exchange.response.body;
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      throw new RecordingFailedError(
        `call ${call} was refused (${status}): ${redactText(text, args.secrets).slice(0, 300)}; nothing was written (reasoning-replay probe shows what this endpoint accepts)`,
      );
    }
    const carriers = carriersOf(last, live.policy, readNotes, call);
    if (last.events) streams.set(exchanges.length, last.events);
    const response = last.events ? { ...last.exchange.response, stream: { events: [] } } : last.exchange.response;
    exchanges.push({ ...(last.exchange as FixtureExchange), response, ...(carriers ? { carriers } : {}) });
  }

  const fixture: Fixture = {
    provider: live.id,
    route: run.verdict.route,
    model: live.target.model,
    scenario: scenario.id,
    family: live.family,
    provenance: {
      kind: 'recorded',
      date: (args.now?.() ?? new Date()).toISOString(),
      tool: toolVersion(),
      endpointHost: new URL(live.baseUrl).host,
    },
    exchanges,
  };
  const pieces = await renderCheckedFixture({ fixture, streams }, args.secrets, args.file);
  const veto = args.mayWrite?.();
  if (veto) throw new RecordingFailedError(`not writing ${shownFileName(args.file)}: ${veto}`);
  writeFixtureFile(args.file, pieces);
  return {
    file: args.file,
    exchanges: exchanges.length,
    bytes: capture.bytes,
    notes: [...failedChecks(run.verdict.checks), ...readNotes],
  };
}
