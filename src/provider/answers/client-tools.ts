import { isPlainObject } from '../../shared/objects/deep-merge.js';

/** One tool a client offered the model: its name and the JSON Schema its arguments must satisfy. */
export interface OfferedTool {
  name: string;
  schema: unknown;
}

/**
 * How a family's request body declares the client's own tools and closes a tool round, read the
 * way the provider would: serve's follow mode (src/provider/answers/follow) answers any agent with a
 * call to one of its tools, then with words once the results are in. Each family folder has one.
 */
export interface ClientToolReading {
  /**
   * The function tools on offer; built-in tools (web search, code execution) have no client handler, so they are not
   * listed.
   */
  offeredTools(body: Readonly<Record<string, unknown>>): OfferedTool[];
  /** Does the request end with the results of tool calls (so the model's next move is words)? */
  endsWithToolResult(body: Readonly<Record<string, unknown>>): boolean;
  /** How the provider's own tool-call ids start; follow mode issues `<prefix><call>_<n>`. */
  toolCallIdPrefix: string;
}

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : undefined);

/**
 * A tool named by the client; a declaration without a usable name is skipped, one without a schema takes any object.
 */
export const named = (name: unknown, schema: unknown): OfferedTool[] =>
  typeof name === 'string' && name !== '' ? [{ name, schema: schema ?? { type: 'object' } }] : [];

export const hasBlock = (content: unknown, test: (block: Record<string, unknown>) => boolean): boolean =>
  list(content).some((b) => isPlainObject(b) && test(b));
