/**
 * One row of the bench table. `measured` is a ratio (or, for the `check` footprint, an absolute
 * figure the issue states as such); `met` compares it with the goal as the issue wrote it, never a
 * goal loosened to fit the machine.
 */
export interface BenchFigure {
  /** Stable id, e.g. `replay-engine/openai-chat`. */
  id: string;
  /** What is measured, in words. */
  figure: string;
  measured: number;
  unit: string;
  /** The goal in words, e.g. `<= 3x`. */
  goal: string;
  met: boolean;
  /** The raw timings behind the ratio, so a reader can redo the arithmetic. */
  details: Record<string, unknown>;
}

/** A benchmark that could not run at all: reported as missed with the reason, never dropped. */
export function failedFigure(id: string, figure: string, goal: string, error: unknown): BenchFigure {
  return {
    id,
    figure,
    measured: Number.NaN,
    unit: '',
    goal,
    met: false,
    details: { error: error instanceof Error ? error.message : String(error) },
  };
}
