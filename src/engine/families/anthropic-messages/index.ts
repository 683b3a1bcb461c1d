import type { Family } from '../family.js';
import { fromAnthropicMessagesResponse } from './from-response.js';
import { anthropicStreamCarriers } from './stream-carriers.js';
import { toAnthropicMessagesRequest } from './to-request.js';

/** Claude's Messages API: Anthropic direct, Vertex (rawPredict) and Foundry share this wire. */
export const anthropicMessagesFamily: Family = {
  id: 'anthropic-messages',
  toRequest: toAnthropicMessagesRequest,
  fromResponse: fromAnthropicMessagesResponse,
  streamCarriers: anthropicStreamCarriers,
};
