import type { NativeCarrierRecord } from '../../model/history.js';
import { isPlainObject } from '../../util/deep-merge.js';

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
  function_call_ids: Record<string, string>;
}

export function responsesNativeRecord(route: string, ids: Record<string, string>): NativeCarrierRecord | undefined {
  if (Object.keys(ids).length === 0) return undefined;
  const fields: ResponsesNativeFields = { function_call_ids: ids };
  return { route, fields: fields as unknown as Record<string, unknown> };
}

export function readFunctionCallIds(fields: Record<string, unknown> | undefined): Record<string, string> {
  const ids = fields?.function_call_ids;
  if (!isPlainObject(ids)) return {};
  return Object.fromEntries(Object.entries(ids).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}
