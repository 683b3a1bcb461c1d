import type { Fault } from '../../../shared/faults/fault-catalogue.js';
import type {
  Framework,
  FrameworkMatrix,
  FrameworkProvider,
  VersionPair,
} from '../../services/framework-results/framework-matrix.js';

/** One agent run of the matrix: a framework, a provider, streamed or not, maybe one package swapped. */
export interface FrameworkRun {
  key: string;
  framework: Framework;
  provider: FrameworkProvider;
  stream: boolean;
  /** A pair's side: the package swapped for the alias of its bug or fixed version. */
  pair?: { pair: VersionPair; side: 'bug' | 'fixed' };
  /** A fault of specs/faults.json injected once into this run (the faults column, or a pair judged under it). */
  fault?: string;
}

const keyOf = (framework: string, provider: string, stream: boolean, extra = '') =>
  `${framework}${extra} × ${provider} × ${stream ? 'stream' : 'json'}`;

/**
 * Every run of the matrix: framework × provider × stream, then each pair's bug and fixed version
 * × stream. `fast` keeps only the rows and pairs marked for `npm test`, not streamed.
 * With `faultsOf` (the faults that apply to a provider), the faults column too: each row streamed once per fault
 * (in `fast`, only rows marked `fastFaults`, under their stream-cut faults). A pair naming a fault runs streamed
 * under it, both versions.
 */
export function frameworkRuns(
  matrix: FrameworkMatrix,
  options: { fast?: boolean; faultsOf?: (provider: string) => readonly Fault[] } = {},
): FrameworkRun[] {
  const streams = options.fast ? [false] : [false, true];
  const runs: FrameworkRun[] = [];
  for (const framework of matrix.frameworks)
    for (const provider of framework.providers) {
      if (options.fast && !provider.fast) continue;
      for (const stream of streams)
        runs.push({ key: keyOf(framework.id, provider.provider, stream), framework, provider, stream });
    }
  if (options.faultsOf)
    for (const framework of matrix.frameworks)
      for (const provider of framework.providers) {
        if (options.fast && !provider.fastFaults) continue;
        const faults = options
          .faultsOf(provider.provider)
          .filter((f) => !options.fast || f.inject.kind === 'stream-cut');
        for (const fault of faults)
          runs.push({
            key: keyOf(framework.id, provider.provider, true, ` [${fault.name}]`),
            framework,
            provider,
            stream: true,
            fault: fault.name,
          });
      }
  for (const pair of matrix.pairs) {
    if (options.fast && !pair.fast) continue;
    const framework = matrix.frameworks.find((f) => f.id === pair.framework)!;
    const provider = framework.providers.find((p) => p.provider === pair.provider)!;
    // A stream cut needs a stream: a pair judged under a fault runs streamed only.
    for (const side of ['bug', 'fixed'] as const)
      for (const stream of pair.fault ? [true] : streams)
        runs.push({
          key: keyOf(
            framework.id,
            pair.provider,
            stream,
            ` (${pair.package}@${pair[side].version})${pair.fault ? ` [${pair.fault}]` : ''}`,
          ),
          framework,
          provider: { ...provider, package: pair[side].alias },
          stream,
          pair: { pair, side },
          ...(pair.fault ? { fault: pair.fault } : {}),
        });
  }
  return runs;
}

/** The agent's command line for one run (a Python script without its interpreter). */
export function agentArgv(run: FrameworkRun): string[] {
  const script = run.provider.agent ?? run.framework.agent;
  return [
    ...script,
    ...(run.framework.language === 'node' ? ['--provider', run.provider.provider] : []),
    ...(run.stream ? ['--stream'] : []),
    // A node agent told it runs under a fault behaves as a deployed one: its SDK's own retries, one retry of a failed turn.
    ...(run.fault && run.framework.language === 'node' ? ['--fault', run.fault] : []),
    ...(run.pair ? ['--use', `${run.pair.pair.package}=${run.pair.pair[run.pair.side].alias}`] : []),
  ];
}
