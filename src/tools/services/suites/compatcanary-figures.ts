import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';

/**
 * Another project's conformance scanner for OpenAI-style APIs, CompatCanary (npm compatcanary, a devDependency),
 * and its figures per mock. Scanning every mock over HTTP takes tens of seconds, so `npm run compatcanary` writes the
 * figures, dated, to reports/compatcanary.json, and the report shows the file it finds.
 */
export interface ProbeResult {
  id: string;
  status: 'pass' | 'warn' | 'fail';
  summary: string;
}
export interface Probe {
  id: string;
}
export interface CompatCanary {
  scanEndpoint(
    options: { baseUrl: string; model: string; timeoutMs?: number },
    probes?: Probe[],
  ): Promise<{ results: ProbeResult[] }>;
}

export interface CompatCanaryFigures {
  version: 1;
  /** The day the scan ran (YYYY-MM-DD): the figures are as old as that. */
  date: string;
  package: string;
  mocks: Array<{ provider: string; pass: number; warn: number; fail: number; notPassing: string[] }>;
}

/** The package's entry and its probe list (the probe list is not in its exports map: read beside the entry). */
export async function loadCompatCanary(): Promise<{ scanner: CompatCanary; probes: Probe[]; version: string }> {
  const entry = createRequire(import.meta.url).resolve('compatcanary');
  const scanner = (await import(pathToFileURL(entry).href)) as CompatCanary;
  const { probes } = (await import(pathToFileURL(join(dirname(entry), 'probes.js')).href)) as { probes: Probe[] };
  return { scanner, probes, version: packageVersion(dirname(entry)) };
}

/** The version in the nearest package.json above the entry (the package exports no package.json). */
function packageVersion(dir: string): string {
  for (let at = dir; at !== dirname(at); at = dirname(at)) {
    const file = join(at, 'package.json');
    if (!existsSync(file)) continue;
    const data = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (data.name === 'compatcanary' && data.version) return data.version;
  }
  return 'unknown';
}

/** The OpenAI-compatible mocks CompatCanary scans: every Chat Completions and Responses spec. */
export const compatCanaryMocks = (specs: readonly ProviderSpec[]): ProviderSpec[] =>
  specs.filter((s) => s.family === 'openai-chat' || s.family === 'openai-responses');

/** Scans one mock with the probes of its API (chat or Responses) and model discovery. */
export async function scanMock(
  canary: { scanner: CompatCanary; probes: Probe[] },
  serveUrl: string,
  spec: ProviderSpec,
): Promise<{ probes: Probe[]; results: ProbeResult[] }> {
  const responses = spec.family === 'openai-responses';
  const probes = canary.probes.filter((p) => !p.id.startsWith(responses ? 'chat.' : 'responses.'));
  const { results } = await canary.scanner.scanEndpoint(
    { baseUrl: `${serveUrl}/${spec.id}`, model: spec.target.model, timeoutMs: 20_000 },
    probes,
  );
  return { probes, results };
}

/** Pass, warn and fail per mock, and the probes that did not pass, from each mock's results. */
export function compatCanaryFigures(
  scans: ReadonlyArray<{ provider: string; results: readonly ProbeResult[] }>,
  date: string,
  version: string,
): CompatCanaryFigures {
  return {
    version: 1,
    date,
    package: `compatcanary@${version}`,
    mocks: scans.map(({ provider, results }) => ({
      provider,
      pass: results.filter((r) => r.status === 'pass').length,
      warn: results.filter((r) => r.status === 'warn').length,
      fail: results.filter((r) => r.status === 'fail').length,
      notPassing: results.filter((r) => r.status !== 'pass').map((r) => `${r.id} ${r.status}`),
    })),
  };
}
