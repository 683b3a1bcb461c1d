import { isPlainObject } from '../../shared/objects/deep-merge.js';

/**
 * How many assistant turns a body's conversation holds (Chat and Messages `messages`, Gemini `contents`, Responses
 * `input`): which call of its conversation a request is, when no header says so. The mocks' answer differs per call,
 * so every door to them (the msw handlers, serve) counts the same way.
 */
export function assistantTurns(body: unknown): number {
  if (!isPlainObject(body)) return 0;
  const list = (body.messages ?? body.contents ?? body.input) as unknown;
  if (!Array.isArray(list)) return 0;
  return list.filter(
    (m) => isPlainObject(m) && (m.role === 'assistant' || m.role === 'model' || m.type === 'function_call'),
  ).length;
}
