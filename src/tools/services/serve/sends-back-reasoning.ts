import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { wireCarrierKeys } from '../../../judge/conformance/wire-carriers.js';

/**
 * Does a request send back reasoning an earlier answer issued? A reasoning carrier in its conversation (messages,
 * contents or input; a tool schema with a `reasoning` property is no replay), or a Responses reasoning item named
 * by id: an `item_reference` to an `rs_` item, or `previous_response_id` (the server holds the reasoning). A run in
 * which no request does so has exercised no replay at all, whatever its verdicts say.
 */
export function sendsBackReasoning(body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  const conversation = body.messages ?? body.contents ?? body.input;
  if (wireCarrierKeys({ conversation }).length > 0) return true;
  if (typeof body.previous_response_id === 'string' && body.previous_response_id !== '') return true;
  return (
    Array.isArray(body.input) &&
    body.input.some((i) => isPlainObject(i) && i.type === 'item_reference' && String(i.id).startsWith('rs_'))
  );
}
