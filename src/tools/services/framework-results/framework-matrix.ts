import { join } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { specsDir } from '../../../shared/project-root.js';
import { readJsonFile } from '../../../shared/validation/read-json.js';
import { assertValid } from '../../../shared/validation/validate.js';

/** Mirrors specs/schema/frameworks.schema.json; the schema is the authority. */
export interface FrameworkProvider {
  provider: string;
  package: string;
  agent?: string[];
  fast?: boolean;
  /** In `npm test`, run this row under each stream-cut fault of its family. */
  fastFaults?: boolean;
  knownIssue?: string;
}

export interface Framework {
  id: string;
  name: string;
  package: string;
  language: 'node' | 'python';
  requirements?: string;
  agent: string[];
  providers: FrameworkProvider[];
}

export interface PairVersion {
  version: string;
  alias: string;
}

export interface VersionPair {
  id: string;
  framework: string;
  provider: string;
  package: string;
  bug: PairVersion;
  fixed: PairVersion;
  rule: string;
  carrier: string;
  report: string;
  fix: string;
  fast?: boolean;
  /** A fault of specs/faults.json the pair is judged under (rule recovers-from-faults). */
  fault?: string;
}

export interface FrameworkMatrix {
  frameworks: Framework[];
  pairs: VersionPair[];
}

export const defaultFrameworksFile = (): string => join(specsDir(), 'frameworks.json');

/**
 * specs/frameworks.json, checked against its schema and against itself: a pair names a framework
 * that exists and a provider that framework covers, and every provider is one of `providerIds`.
 */
export function loadFrameworkMatrix(
  providerIds: readonly string[],
  file: string = defaultFrameworksFile(),
): FrameworkMatrix {
  const matrix = assertValid<FrameworkMatrix>(readJsonFile(file), 'frameworks.schema.json', file);
  const known = new Set(providerIds);
  matrix.frameworks.forEach((f, i) =>
    f.providers.forEach((p, j) => {
      if (!known.has(p.provider))
        throw new InputError(file, `/frameworks/${i}/providers/${j}/provider`, `no provider spec "${p.provider}"`);
    }),
  );
  matrix.pairs.forEach((pair, i) => {
    const framework = matrix.frameworks.find((f) => f.id === pair.framework);
    if (!framework)
      throw new InputError(
        file,
        `/pairs/${i}/framework`,
        `no framework "${pair.framework}"`,
        'use a framework id above',
      );
    if (!framework.providers.some((p) => p.provider === pair.provider))
      throw new InputError(file, `/pairs/${i}/provider`, `${framework.id} does not cover "${pair.provider}"`);
  });
  return matrix;
}
