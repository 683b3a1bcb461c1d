import { createHash } from 'node:crypto';
import { isPlainObject } from '../../shared/objects/deep-merge.js';

/**
 * Which conversation a request continues, read from the request alone: a digest of the text of its first user turn.
 * A request log has no conversation id, and the carriers that would name one are exactly what a broken client drops;
 * the opening user turn is what every later request of a conversation still sends, whatever the client's compaction
 * did to the turns after it (a Responses compact answer lists the user messages again, as input text parts).
 * Undefined when the body holds no user turn (a stored conversation named by id, a body that is not a chat).
 */
export function conversationOpening(body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined;
  const turns =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : [body.messages, body.input, body.contents].find(Array.isArray);
  if (!Array.isArray(turns)) return undefined;
  const first = turns.find(
    (t) => isPlainObject(t) && t.role === 'user' && (t.type === undefined || t.type === 'message'),
  ) as Record<string, unknown> | undefined;
  const text = first && textOf(first.content ?? first.parts);
  return text ? createHash('sha256').update(text).digest('hex') : undefined;
}

/** A turn's text: a string, or its parts' texts joined (`text`, `input_text` and Gemini's parts all carry `text`). */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content.map((p) => (isPlainObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
}
