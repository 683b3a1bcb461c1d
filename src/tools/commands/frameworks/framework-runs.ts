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
}

const keyOf = (framework: string, provider: string, stream: boolean, extra = '') =>
  `${framework}${extra} × ${provider} × ${stream ? 'stream' : 'json'}`;

/**
 * Every run of the matrix: framework × provider × stream, then each pair's bug and fixed version
 * × stream. `fast` keeps only the rows and pairs marked for `npm test`, not streamed.
 */
export function frameworkRuns(matrix: FrameworkMatrix, options: { fast?: boolean } = {}): FrameworkRun[] {
  const streams = options.fast ? [false] : [false, true];
  const runs: FrameworkRun[] = [];
  for (const framework of matrix.frameworks)
    for (const provider of framework.providers) {
      if (options.fast && !provider.fast) continue;
      for (const stream of streams)
        runs.push({ key: keyOf(framework.id, provider.provider, stream), framework, provider, stream });
    }
  for (const pair of matrix.pairs) {
    if (options.fast && !pair.fast) continue;
    const framework = matrix.frameworks.find((f) => f.id === pair.framework)!;
    const provider = framework.providers.find((p) => p.provider === pair.provider)!;
    for (const side of ['bug', 'fixed'] as const)
      for (const stream of streams)
        runs.push({
          key: keyOf(framework.id, pair.provider, stream, ` (${pair.package}@${pair[side].version})`),
          framework,
          provider: { ...provider, package: pair[side].alias },
          stream,
          pair: { pair, side },
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
    ...(run.pair ? ['--use', `${run.pair.pair.package}=${run.pair.pair[run.pair.side].alias}`] : []),
  ];
}
