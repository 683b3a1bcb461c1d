import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Message } from '../../shared/history/history.js';
import { aHistory } from '../../../test/helpers/history-arbitraries.test-helper.js';
import { checkpointSummary, isCheckpoint } from './checkpoint.js';
import { extractiveSummary } from './summarize.js';

/**
 * The summary as first written: a line for every replaced user message and checkpoint, joined, then
 * cut to maxChars. extractiveSummary stops writing lines at maxChars (a 100k-turn head built and
 * threw away a line per user message); it must return exactly this.
 */
function summaryWrittenInFull(replaced: readonly Message[], maxChars: number): string {
  const text = (m: Message) =>
    typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => p.text).join(' ') : '';
  const firstLine = (t: string, max: number) => {
    const line = t.replace(/\s+/g, ' ').trim();
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
  };
  const counts = { user: 0, assistant: 0, tool: 0 };
  const lines: string[] = [];
  for (const m of replaced) {
    if (isCheckpoint(m)) lines.push(checkpointSummary(m).trim());
    else if (m.role === 'user') {
      counts.user += 1;
      lines.push(`- user asked: ${firstLine(text(m), 120)}`);
    } else if (m.role === 'assistant') counts.assistant += 1;
    else if (m.role === 'tool') counts.tool += 1;
  }
  const all = [
    `${replaced.length} earlier messages compacted (${counts.user} user, ${counts.assistant} assistant, ${counts.tool} tool).`,
    ...lines,
  ].join('\n');
  return all.length > maxChars ? all.slice(0, Math.max(0, maxChars)) : all;
}

describe('extractiveSummary', () => {
  test('returns the first maxChars characters of the summary written in full', () => {
    fc.assert(
      fc.property(aHistory, fc.integer({ min: -5, max: 600 }), (history, maxChars) => {
        expect(extractiveSummary(history.messages, maxChars)).toBe(summaryWrittenInFull(history.messages, maxChars));
      }),
      { numRuns: 150 },
    );
  });
});
