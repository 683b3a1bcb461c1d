import { HISTORY_FORMAT_IDS, type HistoryFormatId } from '../../engine/history-formats/history-format.js';
import type { HistoryFormatChoice } from '../../engine/history-formats/load-history-as.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';

/** `--history-format`, shared by build-request, sessions import and replay. */
export const historyFormatOption = {
  choices: [...HISTORY_FORMAT_IDS, 'auto'] as const,
  default: 'canonical' as HistoryFormatChoice,
  describe:
    'how the history file is stored: canonical, openai-chat (exported chat completions, Gemini/Copilot extras, reasoning_details), anthropic-messages, gemini-contents, or auto (detected from its shape; the choice is printed on stderr)',
} as const;

/** Gemini signatures in a converted history are filed under the target route's key when it is a Gemini route. */
export function nativeKeyFor(policy: RoutePolicy | undefined): string | undefined {
  return policy?.family === 'gemini' ? policy.native : undefined;
}

/**
 * What a converter read by a rule rather than copied, one line each on stderr (stdout stays the body);
 * with `auto`, first the format it chose, so a surprise is visible.
 */
export function printNotes(
  file: string,
  notes: readonly string[],
  chosen?: { asked: HistoryFormatChoice; format: HistoryFormatId },
): void {
  if (chosen?.asked === 'auto')
    process.stderr.write(`reasoning-replay: ${file} read as ${chosen.format} (--history-format auto)\n`);
  for (const note of notes) process.stderr.write(`reasoning-replay: ${file} at ${note}\n`);
}

/** A JSON pointer into a converted history names a canonical message, not a spot in the file: say so. */
export function convertedLabel(file: string, format: HistoryFormatId): string {
  return format === 'canonical' ? file : `${file} (as converted from ${format})`;
}
