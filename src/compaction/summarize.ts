import type { Message } from '../model/history.js';
import { checkpointSummary, isCheckpoint } from './checkpoint.js';

/** Writes the text of a new checkpoint from the messages it replaces, in at most `maxChars` characters. */
export type Summarizer = (replaced: readonly Message[], maxChars: number) => string;

const firstLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const textOf = (message: Message) => (typeof message.content === 'string' ? message.content : Array.isArray(message.content) ? message.content.map((p) => p.text).join(' ') : '');

/**
 * The built-in summary: deterministic, no model call (a harness must be reproducible). It keeps
 * the earlier checkpoints' summaries and the user's requests; an agent plugs in an LLM summarizer.
 */
export const extractiveSummary: Summarizer = (replaced, maxChars) => {
  const counts = { user: 0, assistant: 0, tool: 0 };
  const lines: string[] = [];
  for (const m of replaced) {
    if (isCheckpoint(m)) lines.push(checkpointSummary(m).trim());
    else if (m.role === 'user') {
      counts.user += 1;
      lines.push(`- user asked: ${firstLine(textOf(m), 120)}`);
    } else if (m.role === 'assistant') counts.assistant += 1;
    else if (m.role === 'tool') counts.tool += 1;
  }
  const head = `${replaced.length} earlier messages compacted (${counts.user} user, ${counts.assistant} assistant, ${counts.tool} tool).`;
  const text = [head, ...lines].join('\n');
  return text.length > maxChars ? text.slice(0, Math.max(0, maxChars)) : text;
};
