import { afterAll, beforeAll } from 'vitest';
import {
  startProviderMocks,
  type ProviderMocks,
  type ProviderMocksOptions,
} from './tools/services/provider-mocks/provider-mocks.js';
import type { ServeLogEntry } from './tools/services/serve/serve-log.js';
import { ApiUsageError } from './shared/errors/api-usage-error.js';
import { ConformanceError } from './shared/errors/conformance-error.js';

/**
 * For a vitest suite: the provider mocks start before the suite's tests and stop after them. The
 * handle's fields are readable once the suite runs (inside tests and hooks), not at collection time.
 *
 *   const mocks = useProviderMocks({ providers: ['deepseek'] });
 *   it('replays reasoning', async () => { await myAgent(mocks.baseUrls.deepseek); expectConformant(mocks); });
 */
export function useProviderMocks(options: ProviderMocksOptions = {}): ProviderMocks {
  let running: ProviderMocks | undefined;
  beforeAll(async () => {
    running = await startProviderMocks(options);
  });
  afterAll(async () => {
    await running?.close();
  });
  const live = (): ProviderMocks => {
    if (!running)
      throw new ApiUsageError('useProviderMocks: the mocks start in beforeAll; read them inside a test or hook');
    return running;
  };
  return {
    get url() {
      return live().url;
    },
    get baseUrls() {
      return live().baseUrls;
    },
    get env() {
      return live().env;
    },
    get verdicts() {
      return live().verdicts;
    },
    violations: () => live().violations(),
    report: () => live().report(),
    faults: () => live().faults(),
    close: () => live().close(),
  };
}

/** Throws, naming each request and the rule it broke, unless every request so far conformed. */
export function expectConformant(mocks: Pick<ProviderMocks, 'violations'>): void {
  const bad: ServeLogEntry[] = mocks.violations();
  if (bad.length === 0) return;
  const lines = bad.map(
    (e) =>
      `#${e.seq} ${e.provider} ${e.method} ${e.path} -> ${e.status}: ${e.findings.map((f) => `${f.rule}${f.detail ? ` (${f.detail})` : ''}`).join('; ') || 'not a 2xx answer'}`,
  );
  throw new ConformanceError(
    `${bad.length} request${bad.length === 1 ? '' : 's'} broke a provider rule:\n${lines.join('\n')}`,
  );
}
