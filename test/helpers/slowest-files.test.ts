import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { slowestFiles, SlowestFilesReporter, type FileTiming } from './slowest-files.test-helper.js';

const file = (name: string, collectDuration: number, duration: number): FileTiming => ({
  moduleId: `/repo/${name}`,
  collectDuration,
  duration,
});

describe('the slowest files at the end of npm test', () => {
  it('lists the slowest first by import plus tests, at most ten, with both parts named', () => {
    const files = Array.from({ length: 12 }, (_, i) => file(`t${i}.test.ts`, i * 100, 1000));
    files.push(file('import-heavy.test.ts', 30_000, 500), file('slow-tests.test.ts', 200, 20_000));
    const lines = slowestFiles(files, '/repo');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('  30.5 s  import-heavy.test.ts (import 30.0 s, tests 0.5 s)');
    expect(lines[1]).toBe('  20.2 s  slow-tests.test.ts (import 0.2 s, tests 20.0 s)');
    expect(lines[2]).toMatch(/^ +2\.1 s {2}t11\.test\.ts /);
    expect(lines.join('\n')).not.toMatch(/t[0-2]\.test\.ts/);
  });

  it('the reporter prints them after a run of many files, and nothing after a run of a few', () => {
    const modules = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        moduleId: `/repo/f${i}.test.ts`,
        diagnostic: () => ({ collectDuration: 10, duration: i * 1000 }),
      })) as unknown as TestModule[];
    let out = '';
    const reporter = new SlowestFilesReporter('/repo', (t) => (out += t));
    reporter.onTestRunEnd(modules(3));
    expect(out).toBe('');
    reporter.onTestRunEnd(modules(15));
    expect(out).toMatch(
      /^\nThe ten slowest test files:\n +14\.0 s {2}f14\.test\.ts \(import 0\.0 s, tests 14\.0 s\)\n/,
    );
    expect(out.trim().split('\n')).toHaveLength(11);
  });
});
