import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { HistoryShapeError } from '../../shared/errors/history-shape-error.js';

/**
 * Chat-shaped history holds tool arguments as a JSON string; Anthropic and Bedrock want an object.
 * Arguments that are not a JSON object are refused with where they are, never guessed at.
 * `pointer` is the JSON pointer of the `arguments` string in the history.
 */
export function parseToolArguments(args: string, pointer: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = args.trim() === '' ? {} : JSON.parse(args);
  } catch {
    throw new HistoryShapeError(
      pointer,
      'tool call arguments are not valid JSON, so they cannot become a tool input object',
      'arguments must be a JSON object serialized as a string, e.g. "{\\"city\\":\\"Oslo\\"}"',
    );
  }
  if (!isPlainObject(value))
    throw new HistoryShapeError(pointer, 'tool call arguments must be a JSON object', 'wrap the value in an object');
  return value;
}
