import type { NativeCarrierRecord } from '../../../shared/history/history.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';

export const RESPONSES_NATIVE_KEY = 'openai-responses';

/** The reasoning_details format OpenRouter gives items that came from the Responses API. */
export const RESPONSES_DETAIL_FORMAT = 'openai-responses-v1';

/**
 * Output-item ids of function calls (`fc_…`) by call_id. They are not standard history (a
 * ToolCall has one id, the call_id), yet the Responses API pairs an `fc_` item with the
 * reasoning item that produced it ("Item 'fc_…' of type 'function_call' was provided without its
 * required 'reasoning' item"), so they go back as given, and only to this route.
 */
export interface ResponsesNativeFields {
  function_call_ids?: Record<string, string>;
  /** The output items in order, when the answer held items the message has no field for. */
  items?: ResponsesItemRecord[];
}

/**
 * One output item, in order, for answers with built-in tool items (web_search_call,
 * code_interpreter_call, file_search_call, image_generation_call, mcp_call, ... and kinds OpenAI
 * adds later) between reasoning and text. Positions only, like the other native records:
 * `reasoning` names its rs_ id (the blobs stay in reasoning_details), `message` holds how many
 * characters of the content each output_text part had, with its annotations (url citations) kept
 * as given, `call` takes the next tool call; only `item` (a built-in tool item) is verbatim.
 */
export type ResponsesItemRecord =
  | { kind: 'reasoning'; id: string }
  | { kind: 'message'; parts: { chars: number; annotations?: unknown[] }[] }
  | { kind: 'call' }
  | { kind: 'item'; item: Record<string, unknown> };

export function responsesNativeRecord(
  route: string,
  ids: Record<string, string>,
  items?: ResponsesItemRecord[],
): NativeCarrierRecord | undefined {
  const fields: ResponsesNativeFields = {};
  if (Object.keys(ids).length > 0) fields.function_call_ids = ids;
  if (items !== undefined) fields.items = items;
  if (Object.keys(fields).length === 0) return undefined;
  return { route, fields: fields as unknown as Record<string, unknown> };
}

/** Reads the item layout back; a malformed one is not replayed at all. */
export function readResponsesItems(fields: Record<string, unknown> | undefined): ResponsesItemRecord[] | undefined {
  const raw = fields?.items;
  if (!Array.isArray(raw)) return undefined;
  const out: ResponsesItemRecord[] = [];
  for (const r of raw) {
    if (!isPlainObject(r)) return undefined;
    if (r.kind === 'reasoning' && typeof r.id === 'string') out.push({ kind: 'reasoning', id: r.id });
    else if (r.kind === 'call') out.push({ kind: 'call' });
    else if (r.kind === 'item' && isPlainObject(r.item) && typeof r.item.type === 'string')
      out.push({ kind: 'item', item: r.item });
    else if (
      r.kind === 'message' &&
      Array.isArray(r.parts) &&
      r.parts.every((p) => isPlainObject(p) && typeof p.chars === 'number' && p.chars >= 0)
    ) {
      out.push({
        kind: 'message',
        parts: (r.parts as Record<string, unknown>[]).map((p) =>
          Array.isArray(p.annotations)
            ? { chars: p.chars as number, annotations: p.annotations }
            : { chars: p.chars as number },
        ),
      });
    } else return undefined;
  }
  return out;
}

export function readFunctionCallIds(fields: Record<string, unknown> | undefined): Record<string, string> {
  const ids = fields?.function_call_ids;
  if (!isPlainObject(ids)) return {};
  return Object.fromEntries(
    Object.entries(ids).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  );
}
