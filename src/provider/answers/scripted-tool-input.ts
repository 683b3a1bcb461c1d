import { ScenarioError } from '../../shared/errors/scenario-error.js';
/**
 * A scripted tool call holds its arguments as a JSON string (chat shape); Anthropic and Bedrock
 * answer with an input object. The provider side parses them itself rather than borrowing the
 * engine's history parser, so a parsing bug in the engine cannot hide in the answers it is fed.
 * `where` names the scripted call for the error, e.g. `call 2 tool_calls[0]`.
 */
export function scriptedToolInput(args: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = args.trim() === '' ? {} : JSON.parse(args);
  } catch {
    throw new ScenarioError(`${where}: scripted tool arguments are not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ScenarioError(`${where}: scripted tool arguments must be a JSON object`);
  return value as Record<string, unknown>;
}
