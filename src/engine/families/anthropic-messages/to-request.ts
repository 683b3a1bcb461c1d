import type { History } from '../../../shared/history/history.js';
import { hostMatches, normalizeHost } from '../../../shared/route-table/host-matching.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepMerge } from '../../../shared/objects/deep-merge.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import { readFunctionTool } from '../function-tools.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/** Header value of the Messages API version this family writes (Anthropic direct and Foundry). */
export const ANTHROPIC_VERSION = '2023-06-01';
/** Vertex takes the version in the body instead of a header, and the model in the URL. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * Thinking is always requested: this harness exists to replay it. A fixed budget keeps requests
 * reproducible; a route can override it (e.g. adaptive thinking) with a vendor flag, which is
 * deep-merged last.
 */
export const DEFAULT_THINKING = { type: 'enabled', budget_tokens: 4096 } as const;
export const DEFAULT_MAX_TOKENS = 8192;

/** Vertex serves Claude from `aiplatform.googleapis.com` and regional `{region}-aiplatform.googleapis.com` hosts. */
export function isVertexHost(host: string): boolean {
  const h = normalizeHost(host);
  return hostMatches(h, 'aiplatform.googleapis.com') || /^[a-z0-9-]+-aiplatform\.googleapis\.com$/.test(h);
}

function toAnthropicTool(tool: unknown): unknown {
  const fn = readFunctionTool(tool);
  if (!fn) return tool; // already Anthropic-shaped (or a server tool): sent as given
  return {
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    input_schema: fn.parameters,
  };
}

export function toAnthropicMessagesRequest(
  history: History,
  policy: RoutePolicy,
  options: RequestOptions = {},
): OutboundRequest {
  const vertex = isVertexHost(policy.target.host);
  const prompt = convertToAnthropicMessages(history, policy, options.omit);
  let body: Record<string, unknown> = vertex
    ? { anthropic_version: VERTEX_ANTHROPIC_VERSION }
    : { model: policy.target.model };
  body.max_tokens = DEFAULT_MAX_TOKENS;
  body.thinking = { ...DEFAULT_THINKING };
  if (prompt.system) body.system = prompt.system;
  body.messages = prompt.messages;
  if (options.tools && options.tools.length > 0) body.tools = options.tools.map(toAnthropicTool);
  if (options.stream) body.stream = true;
  if (Object.keys(policy.flags).length > 0) body = deepMerge(body, policy.flags);
  const model = encodeURIComponent(policy.target.model);
  // Vertex's base URL ends at `.../publishers/anthropic`; the model and verb follow.
  const path = vertex ? `/models/${model}:${options.stream ? 'streamRawPredict' : 'rawPredict'}` : '/v1/messages';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!vertex) headers['anthropic-version'] = ANTHROPIC_VERSION;
  return { family: 'anthropic-messages', method: 'POST', path, headers, body };
}
