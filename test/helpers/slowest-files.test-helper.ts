import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** What the reporter reads of a test file: its path and vitest's timings for it (milliseconds). */
export interface FileTiming {
  moduleId: string;
  /** Importing the file and what it imports, and running its describe blocks. */
  collectDuration: number;
  /** Its tests and hooks. */
  duration: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The `count` slowest files, slowest first, one line each: total, then how much was import and how much tests. */
export function slowestFiles(files: readonly FileTiming[], root: string, count = 10): string[] {
  return [...files]
    .map((f) => ({ ...f, total: f.collectDuration + f.duration }))
    .sort((a, b) => b.total - a.total || a.moduleId.localeCompare(b.moduleId))
    .slice(0, count)
    .map(
      (f) =>
        `${seconds(f.total).padStart(8)}  ${relative(root, f.moduleId)} (import ${seconds(f.collectDuration)}, tests ${seconds(f.duration)})`,
    );
}

/**
 * Prints the ten slowest test files at the end of a run of many files (`npm test`), so a file that grows slow is
 * seen the day it does. A run of a few files (a developer's loop) prints nothing extra.
 */
export class SlowestFilesReporter implements Reporter {
  constructor(
    private readonly root: string,
    private readonly write: (text: string) => void = (text) => process.stdout.write(text),
    private readonly atLeast = 10,
  ) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length < this.atLeast) return;
    const timings = modules.map((m) => {
      const d = m.diagnostic();
      return { moduleId: m.moduleId, collectDuration: d.collectDuration, duration: d.duration };
    });
    this.write(`\nThe ten slowest test files:\n${slowestFiles(timings, this.root).join('\n')}\n`);
  }
}
