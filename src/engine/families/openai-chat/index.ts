import type { Family } from '../family.js';
import { fromOpenAIChatResponse } from './from-response.js';
import { openAIChatStreamCarriers } from './stream-carriers.js';
import { toOpenAIChatRequest } from './to-request.js';

export const openAIChatFamily: Family = {
  id: 'openai-chat',
  toRequest: toOpenAIChatRequest,
  fromResponse: fromOpenAIChatResponse,
  streamCarriers: openAIChatStreamCarriers,
};
