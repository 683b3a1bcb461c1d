import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../../shared/provider-specs/load-provider-specs.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { loadFrameworkMatrix, type FrameworkMatrix } from '../../services/framework-results/framework-matrix.js';
import { agentArgv, frameworkRuns } from './framework-runs.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faultApplies, loadFaultCatalogue } from '../../../shared/faults/fault-catalogue.js';

const specs = loadProviderSpecs();
const matrix = loadFrameworkMatrix(specs.map((s) => s.id));
const catalogue = loadFaultCatalogue();
const familyOf = new Map(specs.map((s) => [s.id, s.family]));
const faultsOf = (provider: string) =>
  catalogue.faults.filter((f) => faultApplies(f, familyOf.get(provider)!, provider));

describe('the framework matrix (specs/frameworks.json)', () => {
  it('runs every framework × provider streamed and not, and each pair’s two versions streamed and not (streamed only under a fault)', () => {
    const runs = frameworkRuns(matrix);
    const rows = matrix.frameworks.reduce((n, f) => n + f.providers.length, 0);
    const pairRuns = matrix.pairs.reduce((n, p) => n + (p.fault ? 2 : 4), 0);
    expect(runs).toHaveLength(2 * rows + pairRuns);
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

  it('the fast subset (npm test) is not streamed (but for pairs under a fault) and reaches every wire family of the full matrix once', () => {
    const family = new Map(specs.map((s) => [s.id, s.family]));
    const fast = frameworkRuns(matrix, { fast: true });
    // A pair judged under a stream cut needs a stream: it runs streamed, under its fault.
    for (const r of fast) expect(r.stream, r.key).toBe(Boolean(r.pair?.pair.fault));
    expect(fast.filter((r) => r.fault).every((r) => r.pair && r.fault === r.pair.pair.fault)).toBe(true);
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

  it('the faults column: every row streamed once per fault that applies to its provider, the agent told which', () => {
    const plain = frameworkRuns(matrix);
    const withFaults = frameworkRuns(matrix, { faultsOf });
    const faulted = withFaults.filter((r) => r.fault && !r.pair);
    const expected = matrix.frameworks.flatMap((f) => f.providers.flatMap((p) => faultsOf(p.provider)));
    expect(faulted).toHaveLength(expected.length);
    expect(withFaults.length - faulted.length).toBe(plain.length);
    expect(new Set(withFaults.map((r) => r.key)).size).toBe(withFaults.length);
    for (const run of faulted) {
      expect(run.stream).toBe(true);
      const fault = catalogue.faults.find((f) => f.name === run.fault)!;
      expect(faultApplies(fault, familyOf.get(run.provider.provider)!, run.provider.provider)).toBe(true);
      if (run.framework.language === 'node')
        expect(agentArgv(run)).toEqual(expect.arrayContaining(['--fault', run.fault!]));
    }
    // OpenRouter's own cuts reach only the OpenRouter rows.
    expect(
      faulted.some((r) => r.fault === 'openrouter-cut-mid-signature' && r.provider.provider !== 'openrouter'),
    ).toBe(false);
    expect(faulted.some((r) => r.fault === 'openrouter-cut-mid-signature')).toBe(true);
  });

  it('the fast faults column: only rows marked fastFaults, under their stream-cut faults', () => {
    const fast = frameworkRuns(matrix, { fast: true, faultsOf }).filter((r) => r.fault && !r.pair);
    expect(fast.length).toBeGreaterThan(0);
    for (const run of fast) {
      expect(run.provider.fastFaults, run.key).toBe(true);
      expect(catalogue.faults.find((f) => f.name === run.fault)!.inject.kind).toBe('stream-cut');
    }
    const marked = matrix.frameworks.flatMap((f) => f.providers.filter((p) => p.fastFaults));
    const cuts = marked.flatMap((p) => faultsOf(p.provider).filter((f) => f.inject.kind === 'stream-cut'));
    expect(fast).toHaveLength(cuts.length);
  });

  it('a pair judged under a fault runs both versions streamed only, under that fault', () => {
    const faultPair: FrameworkMatrix = JSON.parse(JSON.stringify(matrix));
    faultPair.pairs = [{ ...faultPair.pairs[0]!, rule: 'recovers-from-faults', fault: 'gemini-cut-before-signature' }];
    const runs = frameworkRuns(faultPair).filter((r) => r.pair);
    expect(runs.map((r) => [r.pair!.side, r.stream, r.fault])).toEqual([
      ['bug', true, 'gemini-cut-before-signature'],
      ['fixed', true, 'gemini-cut-before-signature'],
    ]);
  });
});
