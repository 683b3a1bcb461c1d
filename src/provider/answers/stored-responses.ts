import { createHash } from 'node:crypto';
import { isPlainObject } from '../../shared/objects/deep-merge.js';
import type { ProviderSpec } from '../../shared/provider-specs/provider-spec.js';

/** One response the Responses mock stored (the request's `store` not false, the API's default true). */
interface Stored {
  response: Record<string, unknown>;
  input: Array<Record<string, unknown>>;
}

const MAX_STORED = 4096;
const byId = new Map<string, Stored>();
const key = (spec: ProviderSpec, id: string) => `${spec.id}\u0000${id}`;

/** The request's input as the API lists it back: every item with an id, a string input as one user message. */
function inputItems(input: unknown): Array<Record<string, unknown>> {
  const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : input;
  if (!Array.isArray(items)) return [];
  return items.filter(isPlainObject).map((item, i) => {
    if (typeof item.id === 'string') return item;
    const digest = createHash('sha256')
      .update(`${i}\u0000${JSON.stringify(item)}`)
      .digest('hex')
      .slice(0, 40);
    const content =
      typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : (item.content ?? undefined);
    return {
      id: `msg_${digest}`,
      type: item.type ?? 'message',
      ...item,
      ...(content !== undefined ? { content } : {}),
    };
  });
}

/**
 * Keeps a Responses answer the client asked to be stored (`store` true or left out: the API's default), so a later
 * GET /responses/{id}, its input_items and DELETE find it, as the real API's do. Only the Responses family stores.
 */
export function rememberResponse(spec: ProviderSpec, request: unknown, response: unknown): void {
  if (spec.family !== 'openai-responses' || !isPlainObject(request) || !isPlainObject(response)) return;
  if (request.store === false || typeof response.id !== 'string') return;
  if (byId.size >= MAX_STORED) byId.delete(byId.keys().next().value!);
  byId.set(key(spec, response.id), { response, input: inputItems(request.input) });
}

export function storedResponse(spec: ProviderSpec, id: string): Stored | undefined {
  return byId.get(key(spec, id));
}

/** Deletes a stored response; whether there was one. */
export function forgetResponse(spec: ProviderSpec, id: string): boolean {
  return byId.delete(key(spec, id));
}
