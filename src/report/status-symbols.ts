import type { CheckStatus } from '../conformance/verdict.js';
import type { ProvenanceCounts } from './compatibility-report.js';

/** One symbol per state, so a cell reads without colour (colour-blind readers, plain-text CI logs). */
export const STATUS_SYMBOL: Record<CheckStatus, string> = { pass: '✓', warn: '!', fail: '✗', 'n/a': '–' };
export const STATUS_WORD: Record<CheckStatus, string> = { pass: 'pass', warn: 'warning', fail: 'fail', 'n/a': 'not applicable' };

/** "synthesized", "recorded", "2 recorded, 1 synthesized", "no fixture". */
export function describeProvenance(p: ProvenanceCounts): string {
  const parts = (['recorded', 'synthesized', 'none'] as const).filter((k) => p[k] > 0);
  if (parts.length === 0) return 'no cells';
  if (parts.length === 1) return parts[0] === 'none' ? 'no fixture' : parts[0]!;
  return parts.map((k) => `${p[k]} ${k === 'none' ? 'without fixture' : k}`).join(', ');
}
