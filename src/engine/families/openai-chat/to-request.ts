import type { History } from '../../../shared/history/history.js';
import type { RoutePolicy } from '../../../shared/route-table/route-table.js';
import { deepMerge } from '../../../shared/objects/deep-merge.js';
import type { OutboundRequest, RequestOptions } from '../family.js';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';

export function toOpenAIChatRequest(
  history: History,
  policy: RoutePolicy,
  options: RequestOptions = {},
): OutboundRequest {
  let body: Record<string, unknown> = {
    model: policy.target.model,
    messages: convertToOpenAIChatMessages(history, policy, options.omit),
  };
  if (options.tools && options.tools.length > 0) body.tools = options.tools;
  if (options.stream) body.stream = true;
  // Vendor keep-thinking flags come from the route only, so they can never reach another route.
  if (Object.keys(policy.flags).length > 0) body = deepMerge(body, policy.flags);
  return {
    family: 'openai-chat',
    method: 'POST',
    path: '/chat/completions',
    headers: { 'content-type': 'application/json' },
    body,
  };
}
