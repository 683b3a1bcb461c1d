import type { FamilyId } from '../../../shared/route-table/route-table.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { ImportFormatError } from '../../../shared/errors/import-format-error.js';

/**
 * A Vercel AI SDK `*.chunks.txt` dump (one provider payload per line, as its `__fixtures__` hold
 * them) -> the SSE events the provider sent. The dump keeps payloads only, so the framing is put
 * back the way each wire sends it: Anthropic and Responses name every event after its `type`;
 * chat streams end with `data: [DONE]` (the dump leaves the sentinel out); Gemini and Bedrock
 * payloads travel as data alone (Bedrock's are the SDK's `{eventType: payload}` wrapping, which
 * the Bedrock reader takes). A line that is not JSON is an error naming its line number.
 */
export function chunksToEvents(text: string, family: FamilyId): SseEvent[] {
  const events: SseEvent[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let payload: unknown;
    try {
      payload = JSON.parse(line);
    } catch {
      throw new ImportFormatError(
        '',
        `line ${i + 1} is not JSON: ${JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)}`,
      );
    }
    const type =
      typeof payload === 'object' && payload !== null && typeof (payload as { type?: unknown }).type === 'string'
        ? (payload as { type: string }).type
        : undefined;
    const named = (family === 'anthropic-messages' || family === 'openai-responses') && type !== undefined;
    events.push(named ? { event: type, data: line } : { data: line });
  });
  if ((family === 'openai-chat' || family === 'copilot') && events.at(-1)?.data.trim() !== '[DONE]')
    events.push({ data: '[DONE]' });
  return events;
}
