import type { CheckStatus } from '../../../judge/conformance/verdict.js';
import type { ProvenanceCounts } from './compatibility-report.js';

/**
 * One vocabulary for every output (the CLI, markdown, HTML, JUnit): one symbol and one word per
 * state, so a cell reads without colour (colour-blind readers, plain-text CI logs) and the same
 * thing is never drawn two ways.
 */
export const STATUS_SYMBOL: Record<CheckStatus, string> = { pass: '✓', warn: '!', fail: '✗', 'n/a': '–' };
export const STATUS_WORD: Record<CheckStatus, string> = {
  pass: 'pass',
  warn: 'warning',
  fail: 'fail',
  'n/a': 'not applicable',
};
/** CSS class / machine token: `n/a` is not a valid class name. */
export const STATUS_CLASS: Record<CheckStatus, string> = { pass: 'pass', warn: 'warn', fail: 'fail', 'n/a': 'na' };

/** The legend: every state with its symbol, in severity order. */
export const STATUS_LEGEND = (['pass', 'warn', 'fail', 'n/a'] as const)
  .map((s) => `${STATUS_SYMBOL[s]} ${STATUS_WORD[s]}`)
  .join(' · ');

/** The two units every output counts, explained once, in the same words everywhere. */
export const UNITS_EXPLAINED =
  'A scenario run is one scenario played against one provider target. A cell is one route × behaviour square of the matrix; ' +
  'it takes the worst status of the checks for that behaviour in every scenario run on that route (fail, then warning, then pass). ' +
  `Not applicable means no scenario run exercises it there. ${STATUS_LEGEND}.`;

/** "3 pass, 0 warnings, 1 fail, 2 not applicable": counts in the shared words. */
export function describeCounts(c: { pass: number; warn: number; fail: number; na: number }): string {
  return `${c.pass} pass, ${c.warn} warning${c.warn === 1 ? '' : 's'}, ${c.fail} fail, ${c.na} not applicable`;
}

/** "synthesized", "recorded", "2 recorded, 1 synthesized", "no fixture". */
export function describeProvenance(p: ProvenanceCounts): string {
  const parts = (['recorded', 'imported', 'synthesized', 'none'] as const).filter((k) => p[k] > 0);
  if (parts.length === 0) return 'no scenario runs';
  if (parts.length === 1) return parts[0] === 'none' ? 'no fixture' : parts[0]!;
  return parts.map((k) => `${p[k]} ${k === 'none' ? 'without fixture' : k}`).join(', ');
}
