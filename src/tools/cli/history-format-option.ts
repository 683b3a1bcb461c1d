import { HISTORY_FORMAT_IDS, type HistoryFormatId } from '../../engine/history-formats/history-format.js';
import type { RoutePolicy } from '../../shared/route-table/route-table.js';

/** `--history-format`, shared by build-request, sessions import and replay. */
export const historyFormatOption = {
  choices: HISTORY_FORMAT_IDS,
  default: 'canonical' as HistoryFormatId,
  describe:
    'how the history file is stored: canonical, openai-chat (exported chat completions, Gemini/Copilot extras, reasoning_details), anthropic-messages or gemini-contents',
} as const;

/** Gemini signatures in a converted history are filed under the target route's key when it is a Gemini route. */
export function nativeKeyFor(policy: RoutePolicy | undefined): string | undefined {
  return policy?.family === 'gemini' ? policy.native : undefined;
}

/** What a converter read by a rule rather than copied, one line each on stderr (stdout stays the body). */
export function printNotes(file: string, notes: readonly string[]): void {
  for (const note of notes) process.stderr.write(`reasoning-replay: ${file} at ${note}\n`);
}

/** A JSON pointer into a converted history names a canonical message, not a spot in the file: say so. */
export function convertedLabel(file: string, format: HistoryFormatId): string {
  return format === 'canonical' ? file : `${file} (as converted from ${format})`;
}
