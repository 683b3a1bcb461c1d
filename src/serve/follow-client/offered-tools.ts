import type { FamilyId } from '../../routes/route-table.js';
import { isPlainObject } from '../../util/deep-merge.js';

/** One tool a client offered the model: its name and the JSON Schema its arguments must satisfy. */
export interface OfferedTool {
  name: string;
  schema: unknown;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const named = (name: unknown, schema: unknown): OfferedTool[] => (typeof name === 'string' && name !== '' ? [{ name, schema: schema ?? { type: 'object' } }] : []);

/**
 * The function tools in a request body, read the way each wire family declares them. Built-in
 * tools (web search, code execution) have no client-side handler to call, so they are skipped.
 */
export function offeredTools(family: FamilyId, body: unknown): OfferedTool[] {
  if (!isPlainObject(body)) return [];
  switch (family) {
    case 'openai-chat':
    case 'copilot':
      return list(body.tools).flatMap((t) => (isPlainObject(t) && isPlainObject(t.function) ? named(t.function.name, t.function.parameters) : []));
    case 'openai-responses':
      return list(body.tools).flatMap((t) => (isPlainObject(t) && t.type === 'function' ? named(t.name, t.parameters) : []));
    case 'anthropic-messages':
      return list(body.tools).flatMap((t) => (isPlainObject(t) && (t.type === undefined || t.type === 'custom') ? named(t.name, t.input_schema) : []));
    case 'gemini':
      return list(body.tools).flatMap((t) =>
        isPlainObject(t) ? list(t.functionDeclarations ?? t.function_declarations).flatMap((d) => (isPlainObject(d) ? named(d.name, d.parametersJsonSchema ?? d.parameters) : [])) : [],
      );
    case 'bedrock-converse': {
      const config = isPlainObject(body.toolConfig) ? body.toolConfig : {};
      return list(config.tools).flatMap((t) =>
        isPlainObject(t) && isPlainObject(t.toolSpec) ? named(t.toolSpec.name, isPlainObject(t.toolSpec.inputSchema) ? t.toolSpec.inputSchema.json : undefined) : [],
      );
    }
    default:
      return [];
  }
}

const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : undefined);
const hasBlock = (content: unknown, test: (block: Record<string, unknown>) => boolean): boolean => list(content).some((b) => isPlainObject(b) && test(b));

/**
 * Does the request end with the results of tool calls? Then the model's next move is an answer in
 * words; otherwise (a fresh user turn) it calls a tool. That is what keeps an agent's loop finite.
 */
export function endsWithToolResult(family: FamilyId, body: unknown): boolean {
  if (!isPlainObject(body)) return false;
  switch (family) {
    case 'openai-chat':
    case 'copilot': {
      const m = last(body.messages);
      return isPlainObject(m) && (m.role === 'tool' || m.role === 'function');
    }
    case 'openai-responses': {
      const item = last(body.input);
      return isPlainObject(item) && item.type === 'function_call_output';
    }
    case 'anthropic-messages': {
      const m = last(body.messages);
      return isPlainObject(m) && hasBlock(m.content, (b) => b.type === 'tool_result');
    }
    case 'gemini': {
      const c = last(body.contents);
      return isPlainObject(c) && hasBlock(c.parts, (p) => p.functionResponse !== undefined || p.function_response !== undefined);
    }
    case 'bedrock-converse': {
      const m = last(body.messages);
      return isPlainObject(m) && hasBlock(m.content, (b) => b.toolResult !== undefined);
    }
    default:
      return false;
  }
}
