/**
 * `npm run bench`: every benchmark in one run, a table on stdout and reports/bench.json. Each figure
 * is a ratio of two things measured in this same run (the `check` footprint excepted: its goal is
 * stated in CPU-seconds and megabytes), so the table holds on a shared or slow machine.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../src/shared/project-root.js';
import { writeFileAtomic } from '../src/shared/files/write-file-atomic.js';
import { benchCheckFootprint } from './check-footprint.js';
import { benchConformanceThroughput } from './conformance-throughput.js';
import { failedFigure, type BenchFigure } from './figure.js';
import { benchReplayEngine } from './replay-engine.js';
import { formatBenchTable } from './format-table.js';

interface BenchStep {
  name: string;
  /** Figures to report as missed if the step throws, so a crash never shortens the table. */
  fallback: { id: string; figure: string; goal: string };
  run: () => Promise<BenchFigure[]>;
}

const isFigure = (x: unknown): x is BenchFigure =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as BenchFigure).id === 'string' &&
  typeof (x as BenchFigure).met === 'boolean' &&
  'measured' in x;

/**
 * Benchmarks other modules own (sessions, recorder) live in their own files and export one
 * `bench*` function returning BenchFigure(s). They are loaded by name so this runner builds before
 * they exist; a missing one is reported as a missed figure, never skipped.
 */
async function optionalBench(file: string): Promise<BenchFigure[]> {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const path = fileURLToPath(new URL(`./${file}${ext}`, import.meta.url));
  if (!existsSync(path)) throw new Error(`bench/${file}.ts does not exist yet`);
  const mod = (await import(path)) as Record<string, unknown>;
  const fns = Object.entries(mod).filter(([name, value]) => name.startsWith('bench') && typeof value === 'function');
  if (fns.length === 0) throw new Error(`bench/${file}.ts exports no bench* function`);
  const figures: BenchFigure[] = [];
  for (const [name, fn] of fns) {
    const result = await (fn as () => unknown)();
    const list = Array.isArray(result) ? result : [result];
    if (!list.every(isFigure))
      throw new Error(`bench/${file}.ts ${name}() did not return BenchFigure(s) (see bench/figure.ts)`);
    figures.push(...list);
  }
  return figures;
}

const STEPS: BenchStep[] = [
  {
    name: 'replay engine',
    fallback: {
      id: 'replay-engine',
      figure: 'replay engine: request for a 10,000-turn history vs JSON.stringify',
      goal: '<= 3x',
    },
    run: async () => benchReplayEngine(),
  },
  {
    name: 'conformance throughput',
    fallback: {
      id: 'conformance-throughput',
      figure: 'conformance throughput: MSW mocks vs bare node:http and nock',
      goal: '< 2x',
    },
    run: async () => [await benchConformanceThroughput()],
  },
  {
    name: 'serve throughput',
    fallback: {
      id: 'serve-throughput',
      figure:
        'serve vs bare node:http and aimock, JSON and streamed, at 1 and 50 connections (autocannon in its own process, median of rounds)',
      goal: '>= 0.6x, p99 <= 2x, ahead of aimock',
    },
    run: () => optionalBench('serve-throughput'),
  },
  {
    name: 'report --from-log',
    fallback: { id: 'report-from-log', figure: 'report --from-log: 20k-line log vs 10k-line log', goal: '<= 2.5x' },
    run: () => optionalBench('report-from-log'),
  },
  {
    name: 'check footprint',
    fallback: {
      id: 'check',
      figure: '`check` on the bundled table: CPU time and peak memory',
      goal: '< 2 CPU-s and < 300 MB',
    },
    run: () => benchCheckFootprint(),
  },
  {
    name: 'session store and compaction scaling',
    fallback: {
      id: 'session-scaling',
      figure: 'session store resume and compaction, 1k/10k/100k turns: growth per 10x',
      goal: '< 11x per 10x, every step',
    },
    run: () => optionalBench('session-scaling'),
  },
  {
    name: 'recorder overhead',
    fallback: {
      id: 'recorder-overhead',
      figure: 'recorder on a 5 MB SSE stream vs plain passthrough',
      goal: '< 1.2x, heap flat',
    },
    run: () => optionalBench('recorder-overhead'),
  },
];

export interface BenchReport {
  generatedAt: string;
  durationSeconds: number;
  machine: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  met: number;
  missed: number;
  figures: BenchFigure[];
}

const STEP_FLAG = '--step';
/** Marks the step's figures on its stdout, after whatever else the step printed. */
const FIGURES_MARK = '\n@@bench-figures@@';

/**
 * Runs one step in a process of its own (this file with `--step NAME`, which prints the step's figures as JSON), so
 * no figure is measured in a heap the earlier steps grew: the session-scaling step measured compaction of 100k turns
 * at 17x the 10k cost after the serve and replay steps had run in the same process, and at 10x on its own. Built as
 * TypeScript (no dist), the step runs here.
 */
async function runInItsOwnProcess(step: BenchStep): Promise<BenchFigure[]> {
  const self = fileURLToPath(import.meta.url);
  if (!self.endsWith('.js')) return step.run();
  const child = spawn(process.execPath, [self, STEP_FLAG, step.name], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((done, fail) => child.on('error', fail).on('exit', done));
  if (code !== 0) throw new Error(`the ${step.name} step exited ${code}`);
  const at = out.lastIndexOf(FIGURES_MARK);
  const figures = at < 0 ? undefined : (JSON.parse(out.slice(at + FIGURES_MARK.length)) as unknown);
  if (!Array.isArray(figures) || !figures.every(isFigure))
    throw new Error(`the ${step.name} step printed no figures: ${out.slice(0, 200)}`);
  return figures;
}

export async function runBench(
  log: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Promise<BenchReport> {
  const started = Date.now();
  const loadAtStart = loadavg();
  const figures: BenchFigure[] = [];
  for (const step of STEPS) {
    const t = Date.now();
    log(`bench: ${step.name}…`);
    try {
      figures.push(...(await runInItsOwnProcess(step)));
    } catch (err) {
      figures.push(failedFigure(step.fallback.id, step.fallback.figure, step.fallback.goal, err));
    }
    log(`bench: ${step.name} took ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const met = figures.filter((f) => f.met).length;
  return {
    generatedAt: new Date(started).toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 100) / 10,
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadAverageAtStart: loadAtStart.map((x) => Math.round(x * 100) / 100),
      loadAverageAtEnd: loadavg().map((x) => Math.round(x * 100) / 100),
    },
    met,
    missed: figures.length - met,
    figures,
  };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
const stepName = process.argv[2] === STEP_FLAG ? process.argv[3] : undefined;
if (isMain && stepName !== undefined) {
  const step = STEPS.find((s) => s.name === stepName);
  if (!step) throw new Error(`no bench step "${stepName}"`);
  process.stdout.write(FIGURES_MARK + JSON.stringify(await step.run()));
} else if (isMain) {
  const report = await runBench();
  process.stdout.write(formatBenchTable(report.figures) + '\n');
  process.stdout.write(
    `${report.met} met, ${report.missed} missed, in ${report.durationSeconds} s on ${report.machine.cpus} cores (load ${report.machine.loadAverageAtStart.join(' ')})\n`,
  );
  const out = join(projectRoot(), 'reports', 'bench.json');
  writeFileAtomic(out, JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`wrote ${out}\n`);
}
