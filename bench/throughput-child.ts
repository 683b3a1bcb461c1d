/**
 * One process of the conformance-throughput bench. Modes:
 *  - `msw`:  every applicable scenario x provider cell through runScenario and the MSW mocks (the
 *            harness as `check` runs it, without the retention checks); the first pass also writes
 *            every answer to the canned file, which the other modes replay;
 *  - `http`: the same calls, answered with those canned answers by a bare node:http server on
 *            127.0.0.1 in this process;
 *  - `nock`: the same calls, answered by nock. nock and msw share one interceptor instance and
 *            break each other, so this mode never loads msw (this file imports no mock module).
 * Prints one JSON line: exchanges per pass and each pass's CPU and wall milliseconds.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { scenarioAppliesTo } from '../src/shared/scenarios/applicability.js';
import { readResponse, runScenario, type ScenarioTransport } from '../src/judge/conformance/run-scenario.js';
import { builtInEngine } from '../src/tools/services/engine-adapters/built-in-engine.js';
import { FixtureStore } from '../src/provider/fixtures/fixture-store.js';
import { loadProviderSpecs } from '../src/shared/provider-specs/load-provider-specs.js';
import type { TransportResponse } from '../src/engine/replay/fallback.js';
import { loadRouteTable } from '../src/shared/route-table/load-route-table.js';
import { loadScenarios } from '../src/shared/scenarios/load-scenarios.js';
import { collectGarbage } from './timing.js';

export type ThroughputMode = 'msw' | 'http' | 'nock';

export interface ThroughputPasses {
  mode: ThroughputMode;
  exchanges: number;
  /** Every cell's verdict status in order: the same answers must lead to the same verdicts in every mode. */
  verdicts: string;
  cpuMs: number[];
  wallMs: number[];
}

interface CannedAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const SEQ_HEADER = 'x-bench-seq';
/** Headers that describe one transfer; replaying them on another would lie about its framing. */
const TRANSFER = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

function toCanned(response: TransportResponse): CannedAnswer {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([k]) => !TRANSFER.has(k)));
  return {
    status: response.status,
    headers,
    text: typeof response.body === 'string' ? response.body : JSON.stringify(response.body),
  };
}

async function main(): Promise<void> {
  const [mode, cannedFile, passesArg] = process.argv.slice(2) as [ThroughputMode, string, string];
  const passes = Number(passesArg) || 3;
  const table = loadRouteTable();
  const specs = loadProviderSpecs();
  const scenarios = loadScenarios();
  const fixtures = new FixtureStore();
  const bySpec = new Map(specs.map((s) => [s.id, s]));
  const cells = specs.flatMap((spec) =>
    scenarios.filter((sc) => scenarioAppliesTo(sc, spec)).map((scenario) => ({ spec, scenario })),
  );

  let seq = 0;
  let recording = mode === 'msw';
  let send: ScenarioTransport;
  let stop = async () => {};
  const canned: CannedAnswer[] = mode === 'msw' ? [] : (JSON.parse(readFileSync(cannedFile, 'utf8')) as CannedAnswer[]);
  const cannedFor = (header: string | string[] | undefined | null): CannedAnswer => {
    const answer = canned[Number(header)];
    if (!answer) throw new Error(`no canned answer ${String(header)}`);
    return answer;
  };
  const sendTo =
    (base: (origin: string) => string): ScenarioTransport =>
    async (request, spec) => {
      const response = await fetch(base(spec.endpoint.baseUrl.replace(/\/$/, '')) + request.path, {
        method: request.method,
        headers: { ...request.headers, [SEQ_HEADER]: String(seq++) },
        body: JSON.stringify(request.body),
      });
      return readResponse(response);
    };

  if (mode === 'msw') {
    // Imported only in this mode, so the nock process never loads msw.
    const { startMockProviders } = await import('../src/provider/handlers/mock-server.js');
    const { fetchTransport } = await import('../src/judge/conformance/run-scenario.js');
    const server = startMockProviders(specs, fixtures);
    stop = async () => server.close();
    send = async (request, spec, meta) => {
      const response = await fetchTransport(request, spec, meta);
      if (recording) canned.push(toCanned(response));
      return response;
    };
  } else if (mode === 'http') {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        const answer = cannedFor(req.headers[SEQ_HEADER]);
        res.writeHead(answer.status, answer.headers);
        res.end(answer.text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
    send = sendTo(() => `http://127.0.0.1:${port}`);
  } else {
    const { default: nock } = await import('nock');
    nock.disableNetConnect();
    for (const origin of new Set(specs.map((s) => new URL(s.endpoint.baseUrl).origin))) {
      nock(origin)
        .persist()
        .post(() => true)
        .reply(function reply() {
          const answer = cannedFor(this.req.headers[SEQ_HEADER]);
          return [answer.status, answer.text, answer.headers];
        });
    }
    stop = async () => nock.cleanAll();
    send = sendTo((origin) => origin);
  }

  let verdicts = '';
  const pass = async (): Promise<number> => {
    seq = 0;
    let exchanges = 0;
    verdicts = '';
    for (const { spec, scenario } of cells) {
      const run = await runScenario(scenario, spec, { table, specs: bySpec, fixtures, send, engine: builtInEngine });
      exchanges += run.verdict.exchanges.length;
      verdicts += run.verdict.status[0];
    }
    return exchanges;
  };

  // The warm-up pass compiles schemas and JITs the code paths (and, under msw, records the answers).
  const exchanges = await pass();
  if (recording) {
    writeFileSync(cannedFile, JSON.stringify(canned));
    recording = false;
  }
  const cpuMs: number[] = [];
  const wallMs: number[] = [];
  for (let i = 0; i < passes; i++) {
    collectGarbage();
    const cpu = process.cpuUsage();
    const wall = process.hrtime.bigint();
    const n = await pass();
    wallMs.push(Number(process.hrtime.bigint() - wall) / 1e6);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    if (n !== exchanges)
      throw new Error(`pass ${i + 1} made ${n} exchanges, the warm-up ${exchanges}: the runs are not the same work`);
  }
  await stop();
  const result: ThroughputPasses = { mode, exchanges, verdicts, cpuMs, wallMs };
  process.stdout.write(JSON.stringify(result) + '\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (isMain) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
