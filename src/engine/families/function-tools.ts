import { isPlainObject } from '../../shared/objects/deep-merge.js';

/** OpenAI-style `{type:'function', function:{name, description, parameters}}` tools, read loosely. */
export interface FunctionTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** Reads a tool given in the chat shape; returns undefined for a tool already in another shape. */
export function readFunctionTool(tool: unknown): FunctionTool | undefined {
  if (!isPlainObject(tool) || tool.type !== 'function' || !isPlainObject(tool.function)) return undefined;
  const fn = tool.function;
  if (typeof fn.name !== 'string') return undefined;
  return {
    name: fn.name,
    ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
    parameters: isPlainObject(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
  };
}
