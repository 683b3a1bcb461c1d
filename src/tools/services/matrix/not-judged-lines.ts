import type { ConformanceRun } from '../../../judge/conformance/verdict.js';
import { notJudgedText } from '../../../judge/conformance/not-judged.js';

/**
 * One line per operation the engine under test does not implement: which behaviours went unjudged
 * and in how many scenario runs. Printed by `check` beside the summary, never folded into "pass".
 */
export function formatNotJudged(run: ConformanceRun): string {
  return (run.notJudged ?? [])
    .map((n) => `– ${notJudgedText(n.operation)}: ${n.behaviours.join(', ')} in ${n.cells} scenario run(s)`)
    .join('\n');
}
