import type { BenchFigure } from './figure.js';

function cell(figure: BenchFigure): string {
  if (Number.isNaN(figure.measured)) return `not run: ${String(figure.details.error ?? 'unknown')}`;
  return `${figure.measured}${figure.unit === 'x' ? 'x' : ` ${figure.unit}`}`;
}

/** The bench table: one row per figure, the goal as the issue states it, met or missed. */
export function formatBenchTable(figures: readonly BenchFigure[]): string {
  const rows = figures.map((f) => [f.id, cell(f), f.goal, f.met ? 'met' : 'MISSED']);
  const header = ['figure', 'measured', 'goal', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
