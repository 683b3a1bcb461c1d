import { loadMatrixInputs } from '../matrix/run-matrix.js';
import { agentEnv } from '../serve/agent-env.js';
import { brokeARule } from '../serve/serve-log.js';
import { clientReport, type ClientReport } from '../run-report/client-report.js';
import type { ServeLogEntry } from '../serve/serve-log.js';
import { startServe } from '../serve/start-serve.js';
import { ApiUsageError } from '../../../shared/errors/api-usage-error.js';
import { selectFaults } from '../../../shared/faults/fault-catalogue.js';
import type { FaultVerdict } from '../../../judge/faults/fault-recovery-judge.js';

export interface ProviderMocksOptions {
  /** Only these provider mocks (spec ids such as `deepseek`, `anthropic`); default: all. */
  providers?: string[];
  /** Answer from this scenario's script; default: follow the client (call one of its own tools). */
  scenario?: string;
  /** Seed for generated tool arguments. */
  seed?: number;
  /** Keep each request body (redacted) on its verdict. */
  logBodies?: boolean;
  /** 0 (default) picks a free port on 127.0.0.1. */
  port?: number;
  /** A routes file other than the bundled specs/routes.json, for the route names in verdicts. */
  routesFile?: string;
  /** Contested rules refuse instead of answering as their lenient side with a warning (docs/decisions/0044). */
  strict?: boolean;
  /** Faults of specs/faults.json to inject by name (or `all`), each once, repeatable from `seed`. */
  faults?: string | string[];
}

export interface ProviderMocks {
  /** `http://127.0.0.1:<port>`; `GET /` lists every endpoint. */
  url: string;
  /** Provider id -> the base URL to give its SDK (`<url>/<id>`). */
  baseUrls: Record<string, string>;
  /** The variables `reasoning-replay run` sets for an agent (OPENAI_BASE_URL, ..., placeholder keys). */
  env: Record<string, string>;
  /** Every request so far with the mock's verdict, in arrival order (a live array). */
  verdicts: ServeLogEntry[];
  /** The requests that broke a provider rule. */
  violations(): ServeLogEntry[];
  /** The client report over the verdicts so far (cells per client x provider x behaviour). */
  report(): ClientReport;
  /** With `faults`: how each injected fault went so far (recovers-from-faults), and the ones not injected yet. */
  faults(): { verdicts: FaultVerdict[]; notReached: string[] };
  close(): Promise<void>;
}

/**
 * The provider mocks on a free 127.0.0.1 port, for a test suite that points its own client at
 * them: the same mocks `serve` and `run` use, judging every request by the bundled provider specs.
 */
export async function startProviderMocks(options: ProviderMocksOptions = {}): Promise<ProviderMocks> {
  const loaded = loadMatrixInputs(options.routesFile ? { routesFile: options.routesFile } : {});
  for (const id of options.providers ?? []) {
    if (!loaded.specs.some((s) => s.id === id))
      throw new ApiUsageError(
        `startProviderMocks: no provider "${id}" (one of ${loaded.specs.map((s) => s.id).join(', ')})`,
      );
  }
  if (options.scenario && !loaded.scenarios.some((s) => s.id === options.scenario))
    throw new ApiUsageError(`startProviderMocks: no scenario "${options.scenario}"`);
  const specs = options.providers?.length
    ? loaded.specs.filter((s) => options.providers!.includes(s.id))
    : loaded.specs;
  const verdicts: ServeLogEntry[] = [];
  const runId = `rr-lib-${process.pid}-${Date.now().toString(36)}`;
  const serve = await startServe({
    port: options.port ?? 0,
    specs,
    fixtures: loaded.fixtures,
    table: loaded.table,
    runId,
    seed: options.seed ?? 0,
    ...(options.strict ? { strict: true } : {}),
    ...(options.faults !== undefined ? { faults: selectFaults(options.faults) } : {}),
    ...(options.scenario ? { defaultScenario: options.scenario } : {}),
    ...(options.logBodies ? { logBodies: true } : {}),
    log: (entry) => verdicts.push(entry),
  });
  return {
    url: serve.url,
    baseUrls: Object.fromEntries(specs.map((s) => [s.id, `${serve.url}/${s.id}`])),
    env: agentEnv({ url: serve.url, specs, runId, ...(options.scenario ? { scenario: options.scenario } : {}) }),
    verdicts,
    violations: () => verdicts.filter(brokeARule),
    report: () => clientReport(verdicts, loaded.specs),
    faults: () => ({ verdicts: serve.faults?.verdicts() ?? [], notReached: serve.faults?.notReached() ?? [] }),
    close: () => serve.close(),
  };
}
