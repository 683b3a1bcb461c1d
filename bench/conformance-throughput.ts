import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigure } from './figure.js';
import type { ThroughputMode, ThroughputPasses } from './throughput-child.js';
import { round } from './timing.js';

const GOAL = 2;

/** The child script beside this file, .ts under tsx and .js once built. */
const childScript = fileURLToPath(
  new URL(`./throughput-child${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
);

function runChild(mode: ThroughputMode, cannedFile: string, passes: number): Promise<ThroughputPasses> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...process.execArgv, childScript, mode, cannedFile, String(passes)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (err += d));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0)
        return reject(new Error(`${mode} child exited ${code}: ${err.trim().split('\n').slice(0, 3).join(' | ')}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ThroughputPasses);
      } catch {
        reject(new Error(`${mode} child printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}

/**
 * Conformance throughput: scenario exchanges per CPU-second through the MSW mocks (request built,
 * judged by the provider's rules, answered from its fixture, answer read back) against the same
 * requests answered with the same bytes by a bare node:http server on loopback and by nock. Each
 * mode runs in its own process (nock never shares one with msw); the modes take turns, `rounds`
 * times, and each keeps its fastest pass. CPU time is counted, not wall time, so other processes on
 * a shared machine do not decide the figure; wall time is in the details.
 */
export async function benchConformanceThroughput(
  options: { rounds?: number; passes?: number } = {},
): Promise<BenchFigure> {
  const rounds = options.rounds ?? 1;
  const passes = options.passes ?? 2;
  const dir = mkdtempSync(join(tmpdir(), 'rr-bench-'));
  const cannedFile = join(dir, 'canned.json');
  try {
    const best: Record<ThroughputMode, { cpuMs: number; wallMs: number; exchanges: number; verdicts: string }> = {
      msw: { cpuMs: Infinity, wallMs: Infinity, exchanges: 0, verdicts: '' },
      http: { cpuMs: Infinity, wallMs: Infinity, exchanges: 0, verdicts: '' },
      nock: { cpuMs: Infinity, wallMs: Infinity, exchanges: 0, verdicts: '' },
    };
    for (let r = 0; r < rounds; r++) {
      // msw first: its warm-up pass writes the canned answers the other two replay.
      for (const mode of ['msw', 'http', 'nock'] as const) {
        const result = await runChild(mode, cannedFile, passes);
        best[mode] = {
          cpuMs: Math.min(best[mode].cpuMs, ...result.cpuMs),
          wallMs: Math.min(best[mode].wallMs, ...result.wallMs),
          exchanges: result.exchanges,
          verdicts: result.verdicts,
        };
      }
    }
    const rate = (mode: ThroughputMode, key: 'cpuMs' | 'wallMs') => best[mode].exchanges / (best[mode][key] / 1000);
    const cheapest = rate('http', 'cpuMs') >= rate('nock', 'cpuMs') ? 'http' : 'nock';
    const ratio = rate(cheapest, 'cpuMs') / rate('msw', 'cpuMs');
    // The baselines must have done the same work: same exchanges, same verdict for every cell.
    if (best.msw.exchanges !== best.http.exchanges || best.msw.exchanges !== best.nock.exchanges) {
      throw new Error(
        `the modes made different numbers of exchanges (msw ${best.msw.exchanges}, http ${best.http.exchanges}, nock ${best.nock.exchanges})`,
      );
    }
    if (best.msw.verdicts !== best.http.verdicts || best.msw.verdicts !== best.nock.verdicts)
      throw new Error('the modes reached different verdicts from the same answers');
    const perMode = (mode: ThroughputMode) => ({
      exchangesPerCpuSecond: Math.round(rate(mode, 'cpuMs')),
      exchangesPerWallSecond: Math.round(rate(mode, 'wallMs')),
      bestPassCpuMs: round(best[mode].cpuMs),
      bestPassWallMs: round(best[mode].wallMs),
    });
    return {
      id: 'conformance-throughput',
      figure: `conformance throughput: scenario exchanges/s through the MSW mocks vs the cheapest of bare node:http and nock (${cheapest})`,
      measured: round(ratio),
      unit: 'x',
      goal: `< ${GOAL}x`,
      met: ratio < GOAL,
      details: {
        exchangesPerPass: best.msw.exchanges,
        rounds,
        passesPerRound: passes,
        cheapest,
        msw: perMode('msw'),
        http: perMode('http'),
        nock: perMode('nock'),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
