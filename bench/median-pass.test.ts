import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LoadPass } from './load-child.js';
import { medianPass } from './median-pass.js';
import { processCpuMs, serveFigure } from './serve-throughput.js';

const pass = (rps: number, p99: number, p50 = p99 / 2): LoadPass => ({ rps, p50, p99, requests: rps, errors: 0 });

describe('medianPass', () => {
  it('keeps the median round of each measure, not the best one', () => {
    const summary = medianPass([pass(900, 4), pass(1000, 9), pass(5000, 2)]);
    expect(summary.rps).toBe(1000);
    expect(summary.p99).toBe(4);
    expect(summary.rounds).toHaveLength(3);
    expect(summary.requests).toBe(6900);
  });

  it('keeps the median server CPU per request only when every round has one', () => {
    const withCpu = (rps: number, cpu: number): LoadPass => ({ ...pass(rps, 1), serverCpuUsPerRequest: cpu });
    expect(medianPass([withCpu(1, 90), withCpu(2, 30), withCpu(3, 50)]).serverCpuUsPerRequest).toBe(50);
    expect(medianPass([withCpu(1, 90), pass(2, 1), withCpu(3, 50)])).not.toHaveProperty('serverCpuUsPerRequest');
  });

  it('refuses fewer than three rounds', () => {
    expect(() => medianPass([pass(1, 1), pass(2, 2)])).toThrow(/at least 3 rounds/);
  });

  it('lies between the slowest and the fastest round, whatever the order of the rounds', () => {
    const rounds = fc.array(
      fc.record({ rps: fc.integer({ min: 1, max: 1e6 }), p99: fc.double({ min: 0.01, max: 100, noNaN: true }) }),
      { minLength: 3, maxLength: 9 },
    );
    fc.assert(
      fc.property(rounds, (rs) => {
        const passes = rs.map((r) => pass(r.rps, r.p99));
        const summary = medianPass(passes);
        const reversed = medianPass([...passes].reverse());
        const rps = rs.map((r) => r.rps);
        expect(summary.rps).toBe(reversed.rps);
        expect(summary.rps).toBeGreaterThanOrEqual(Math.min(...rps));
        expect(summary.rps).toBeLessThanOrEqual(Math.max(...rps));
        // Half the rounds at least as fast, half at most: the middle, not an extreme.
        expect(rps.filter((x) => x >= summary.rps).length).toBeGreaterThanOrEqual(Math.ceil(rps.length / 2));
        expect(rps.filter((x) => x <= summary.rps).length).toBeGreaterThanOrEqual(Math.ceil(rps.length / 2));
      }),
    );
  });
});

describe('serveFigure', () => {
  const medians = (serve: LoadPass, bare: LoadPass, aimock: LoadPass) => ({
    serve: medianPass([serve, serve, serve]),
    bare: medianPass([bare, bare, bare]),
    aimock: medianPass([aimock, aimock, aimock]),
  });

  it('is met at 0.6x bare with p99 within 2x and ahead of aimock, and says how it was measured', () => {
    const f = serveFigure('json', 50, medians(pass(600, 2), pass(1000, 1), pass(500, 3)), 4);
    expect(f).toMatchObject({ id: 'serve-throughput/json/50', measured: 0.6, met: true });
    expect(f.details).toMatchObject({ p99Ratio: 2, rounds: 3, secondsPerPass: 4 });
    expect(String(f.details.loadGenerator)).toMatch(/own process/);
    expect(f.figure).toMatch(/median of 3 rounds/);
  });

  it('is missed below 0.6x, with a p99 over 2x bare, or behind aimock', () => {
    expect(serveFigure('json', 1, medians(pass(590, 1), pass(1000, 1), pass(1, 1)), 4).met).toBe(false);
    expect(serveFigure('json', 1, medians(pass(900, 2.1), pass(1000, 1), pass(1, 1)), 4).met).toBe(false);
    expect(serveFigure('stream', 1, medians(pass(900, 1), pass(1000, 1), pass(950, 1)), 4).met).toBe(false);
  });
});

describe('processCpuMs', () => {
  it.runIf(process.platform === 'linux')("reads a process's CPU time, which grows with work", () => {
    const before = processCpuMs(process.pid)!;
    const until = process.cpuUsage().user + 60_000;
    while (process.cpuUsage().user < until) Math.sqrt(Math.random());
    expect(processCpuMs(process.pid)!).toBeGreaterThanOrEqual(before + 40);
    expect(processCpuMs(2 ** 30)).toBeUndefined();
  });
});
