import type { NativeCarrierRecord } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

/** The native key a Claude answer is filed under when its route names none (Anthropic direct). */
export const ANTHROPIC_NATIVE_KEY = 'anthropic';

/**
 * One content block of a Claude answer, in the order Claude wrote it, for answers the standard
 * shape cannot replay as they came: server tools (`server_tool_use`, `web_search_tool_result`,
 * `web_fetch_tool_result`, `code_execution_tool_result`, ...) sit between text blocks, and text
 * blocks carry `citations` whose `encrypted_index` only Anthropic can read. Like the Gemini record
 * it holds positions, not the conversation's text: `think` and `call` take the next reasoning item
 * and tool call of the message, `text` the next `chars` characters of its content. Only what the
 * message has no place for is stored verbatim: a whole unfamiliar block, a text block's extra keys.
 * Kind names are short on purpose: the gate searches other routes' requests for a record's strings.
 */
export type AnthropicBlockRecord =
  | { kind: 'think' }
  | { kind: 'text'; chars: number; extra?: Record<string, unknown> }
  | { kind: 'call' }
  | { kind: 'block'; block: Record<string, unknown> };

export interface AnthropicNativeFields {
  blocks: AnthropicBlockRecord[];
}

export function anthropicNativeRecord(route: string, blocks: AnthropicBlockRecord[]): NativeCarrierRecord {
  const fields: AnthropicNativeFields = { blocks };
  return { route, fields: fields as unknown as Record<string, unknown> };
}

/** Reads a record back; anything malformed makes the whole record unusable rather than half-replayed. */
export function readAnthropicNativeFields(
  fields: Record<string, unknown> | undefined,
): AnthropicBlockRecord[] | undefined {
  if (!fields || !Array.isArray(fields.blocks)) return undefined;
  const out: AnthropicBlockRecord[] = [];
  for (const raw of fields.blocks) {
    if (!isPlainObject(raw)) return undefined;
    if (raw.kind === 'think' || raw.kind === 'call') out.push({ kind: raw.kind });
    else if (raw.kind === 'text' && typeof raw.chars === 'number' && Number.isInteger(raw.chars) && raw.chars >= 0) {
      out.push(
        isPlainObject(raw.extra)
          ? { kind: 'text', chars: raw.chars, extra: raw.extra }
          : { kind: 'text', chars: raw.chars },
      );
    } else if (raw.kind === 'block' && isPlainObject(raw.block) && typeof raw.block.type === 'string')
      out.push({ kind: 'block', block: raw.block });
    else return undefined;
  }
  return out;
}

/**
 * The blocks of one assistant turn rebuilt from its record, or undefined when the record no longer
 * fits the message (history edited since capture): then the caller builds the turn the standard
 * way, since a server block or a citation replayed beside text it was not issued with is wrong.
 * Empty text blocks are left out (Anthropic refuses them; they carry nothing).
 */
export function rebuildAnthropicBlocks<B>(
  layout: readonly AnthropicBlockRecord[],
  parts: {
    reasoning: readonly B[];
    reasoningCount: number;
    text: string;
    calls: readonly B[];
    textBlock: (text: string, extra?: Record<string, unknown>) => B;
    /** A verbatim block as it goes on the wire, or undefined when it may not go to this route. */
    verbatim: (block: Record<string, unknown>) => B | undefined;
  },
): B[] | undefined {
  const count = (kind: AnthropicBlockRecord['kind']) => layout.filter((b) => b.kind === kind).length;
  const chars = layout.reduce((n, b) => n + (b.kind === 'text' ? b.chars : 0), 0);
  if (count('think') !== parts.reasoningCount || count('call') !== parts.calls.length || chars !== parts.text.length)
    return undefined;
  if (parts.reasoning.length !== parts.reasoningCount) return undefined;
  const out: B[] = [];
  let think = 0;
  let call = 0;
  let at = 0;
  for (const b of layout) {
    if (b.kind === 'think') out.push(parts.reasoning[think++]!);
    else if (b.kind === 'call') out.push(parts.calls[call++]!);
    else if (b.kind === 'block') {
      const block = parts.verbatim(b.block);
      if (block !== undefined) out.push(block);
    } else {
      const text = parts.text.slice(at, (at += b.chars));
      if (text !== '') out.push(parts.textBlock(text, b.extra));
    }
  }
  return out;
}
