import type { Family } from '../family.js';
import { fromCopilotResponse } from './from-response.js';
import { copilotStreamCarriers } from './stream-carriers.js';
import { toCopilotRequest } from './to-request.js';

export const copilotFamily: Family = {
  id: 'copilot',
  toRequest: toCopilotRequest,
  fromResponse: fromCopilotResponse,
  streamCarriers: copilotStreamCarriers,
};
