import type { Content } from '../../shared/history/history.js';

/** The text of a message's content (string or text parts). */
export function contentText(content: Content): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text).join('');
}
