import type { History } from '../../../shared/history/history.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepMerge } from '../../../shared/objects/deep-merge.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_THINKING } from '../anthropic-messages/to-request.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import { readFunctionTool } from '../function-tools.js';
import { convertToConverseMessages } from './convert-to-converse-messages.js';

function toConverseTool(tool: unknown): unknown {
  const fn = readFunctionTool(tool);
  if (!fn) return tool; // already a Converse {toolSpec} entry
  return {
    toolSpec: {
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      inputSchema: { json: fn.parameters },
    },
  };
}

/** Thinking is requested only for Claude: Converse passes it through to Anthropic's own parameters. */
export function isClaudeModel(model: string): boolean {
  return model.toLowerCase().includes('claude');
}

export function toBedrockConverseRequest(
  history: History,
  policy: RoutePolicy,
  options: RequestOptions = {},
): OutboundRequest {
  const prompt = convertToConverseMessages(history, policy, options.omit);
  let body: Record<string, unknown> = { messages: prompt.messages };
  if (prompt.system) body.system = prompt.system;
  body.inferenceConfig = { maxTokens: DEFAULT_MAX_TOKENS };
  if (options.tools && options.tools.length > 0) body.toolConfig = { tools: options.tools.map(toConverseTool) };
  if (isClaudeModel(policy.target.model)) body.additionalModelRequestFields = { thinking: { ...DEFAULT_THINKING } };
  // Route flags (e.g. adaptive thinking, or an interleaved-thinking beta where the model takes it) merge last.
  if (Object.keys(policy.flags).length > 0) body = deepMerge(body, policy.flags);
  // Streaming is a different operation (ConverseStream), not a body flag.
  const path = `/model/${encodeURIComponent(policy.target.model)}/${options.stream ? 'converse-stream' : 'converse'}`;
  return { family: 'bedrock-converse', method: 'POST', path, headers: { 'content-type': 'application/json' }, body };
}
