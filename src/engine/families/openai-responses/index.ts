import type { Family } from '../family.js';
import { fromOpenAIResponsesResponse } from './from-response.js';
import { openAIResponsesStreamCarriers } from './stream-carriers.js';
import { toOpenAIResponsesRequest } from './to-request.js';

export const openAIResponsesFamily: Family = {
  id: 'openai-responses',
  toRequest: toOpenAIResponsesRequest,
  fromResponse: fromOpenAIResponsesResponse,
  streamCarriers: openAIResponsesStreamCarriers,
};
