import type { Family } from '../family.js';
import { fromGeminiResponse } from './from-response.js';
import { geminiStreamCarriers } from './stream-carriers.js';
import { toGeminiRequest } from './to-request.js';

export const geminiFamily: Family = {
  id: 'gemini',
  toRequest: toGeminiRequest,
  fromResponse: fromGeminiResponse,
  streamCarriers: geminiStreamCarriers,
};
