import type { Family } from '../family.js';
import { fromBedrockConverseResponse } from './from-response.js';
import { bedrockStreamCarriers } from './stream-carriers.js';
import { toBedrockConverseRequest } from './to-request.js';

/** AWS Bedrock Converse / ConverseStream, with the route's per-model replay policy. */
export const bedrockConverseFamily: Family = {
  id: 'bedrock-converse',
  toRequest: toBedrockConverseRequest,
  fromResponse: fromBedrockConverseResponse,
  streamCarriers: bedrockStreamCarriers,
};
