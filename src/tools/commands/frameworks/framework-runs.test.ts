import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { loadFrameworkMatrix, type FrameworkMatrix } from '../../services/framework-results/framework-matrix.js';
import { agentArgv, frameworkRuns } from './framework-runs.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const specs = loadProviderSpecs();
const matrix = loadFrameworkMatrix(specs.map((s) => s.id));

describe('the framework matrix (specs/frameworks.json)', () => {
  it('runs every framework × provider streamed and not, and each pair’s two versions streamed and not', () => {
    const runs = frameworkRuns(matrix);
    const rows = matrix.frameworks.reduce((n, f) => n + f.providers.length, 0);
    expect(runs).toHaveLength(2 * rows + 4 * matrix.pairs.length);
    expect(new Set(runs.map((r) => r.key)).size).toBe(runs.length);
  });

  it('a pair run loads the pinned alias in place of the package, and says so on the agent’s command line', () => {
    const pair = matrix.pairs[0]!;
    const bug = frameworkRuns(matrix).find((r) => r.pair?.pair.id === pair.id && r.pair.side === 'bug' && r.stream)!;
    expect(bug.provider.package).toBe(pair.bug.alias);
    expect(agentArgv(bug)).toEqual(
      expect.arrayContaining(['--provider', pair.provider, '--stream', '--use', `${pair.package}=${pair.bug.alias}`]),
    );
  });

  it('the fast subset (npm test) is not streamed and reaches every wire family of the full matrix once', () => {
    const family = new Map(specs.map((s) => [s.id, s.family]));
    const fast = frameworkRuns(matrix, { fast: true });
    expect(fast.every((r) => !r.stream)).toBe(true);
    const plain = fast.filter((r) => !r.pair);
    const families = plain.map((r) => family.get(r.provider.provider));
    const pairFamilies = fast.filter((r) => r.pair).map((r) => family.get(r.provider.provider));
    const all = new Set(frameworkRuns(matrix).map((r) => family.get(r.provider.provider)));
    expect(new Set([...families, ...pairFamilies])).toEqual(all);
    expect(new Set(families).size).toBe(families.length);
  });

  it('a pair naming a provider its framework does not cover is bad input, with its JSON pointer', () => {
    const bad: FrameworkMatrix = JSON.parse(JSON.stringify(matrix));
    bad.pairs[0]!.provider = 'mistral';
    const file = join(mkdtempSync(join(tmpdir(), 'rr-frameworks-')), 'frameworks.json');
    writeFileSync(file, JSON.stringify(bad));
    expect(() =>
      loadFrameworkMatrix(
        specs.map((s) => s.id),
        file,
      ),
    ).toThrow(InputError);
    expect(() =>
      loadFrameworkMatrix(
        specs.map((s) => s.id),
        file,
      ),
    ).toThrow(/\/pairs\/0\/provider/);
  });
});
