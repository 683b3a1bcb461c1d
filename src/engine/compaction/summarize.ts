import type { Message } from '../../shared/history/history.js';
import { checkpointSummary, isCheckpoint } from './checkpoint.js';

/** Writes the text of a new checkpoint from the messages it replaces, in at most `maxChars` characters. */
export type Summarizer = (replaced: readonly Message[], maxChars: number) => string;

const firstLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const textOf = (message: Message) =>
  typeof message.content === 'string'
    ? message.content
    : Array.isArray(message.content)
      ? message.content.map((p) => p.text).join(' ')
      : '';

/**
 * The built-in summary: deterministic, no model call (a harness must be reproducible). It keeps
 * the earlier checkpoints' summaries and the user's requests; an agent plugs in an LLM summarizer.
 */
export const extractiveSummary: Summarizer = (replaced, maxChars) => {
  const counts = { user: 0, assistant: 0, tool: 0 };
  for (const m of replaced) if (m.role !== 'system' && !isCheckpoint(m)) counts[m.role] += 1;
  return writeExtractiveSummary(replaced, maxChars, counts);
};

/** Messages of each role a summary replaced (checkpoints and system messages not counted). */
export interface RoleCounts {
  user: number;
  assistant: number;
  tool: number;
}

/**
 * extractiveSummary of `messages[from..to)`, with the role counts already known (compress counts
 * them in its pricing pass). A range, not a copy: on a 100k-turn history the replaced head is ~50k
 * messages, and a slice of them is a fresh ~400 KB array the kernel has to fault in page by page,
 * for a summary that reads only its first few dozen.
 */
export function writeExtractiveSummary(
  messages: readonly Message[],
  maxChars: number,
  counts: RoleCounts,
  from = 0,
  to = messages.length,
): string {
  const head = `${to - from} earlier messages compacted (${counts.user} user, ${counts.assistant} assistant, ${counts.tool} tool).`;
  // Only the first maxChars characters are returned, so lines past them are never written: a long
  // head costs no more than a short one.
  const lines: string[] = [head];
  let length = head.length;
  for (let i = from; i < to && length < maxChars; i++) {
    const m = messages[i]!;
    let line: string | undefined;
    if (isCheckpoint(m)) line = checkpointSummary(m).trim();
    else if (m.role === 'user') line = `- user asked: ${firstLine(textOf(m), 120)}`;
    if (line === undefined) continue;
    lines.push(line);
    length += 1 + line.length;
  }
  const text = lines.join('\n');
  return text.length > maxChars ? text.slice(0, Math.max(0, maxChars)) : text;
}
