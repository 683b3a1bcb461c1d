import { isPlainObject } from '../util/deep-merge.js';

/**
 * Chat-shaped history holds tool arguments as a JSON string; Anthropic and Bedrock want an object.
 * A history whose arguments are not a JSON object is refused with where it is, never guessed at.
 */
export function parseToolArguments(args: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = args.trim() === '' ? {} : JSON.parse(args);
  } catch {
    throw new Error(`${where}: function.arguments is not valid JSON, so it cannot become a tool input object`);
  }
  if (!isPlainObject(value)) throw new Error(`${where}: function.arguments must be a JSON object`);
  return value;
}
