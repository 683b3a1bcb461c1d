import type { StandardCarrierField } from '../model/history.js';
import type { FamilyId } from '../routes/route-table.js';

/**
 * Which standard carrier fields each wire family knows how to put on the wire. A route that lists
 * a field its family cannot carry is a table error (exit 2), not a silent drop.
 */
export const FAMILY_CARRIER_FIELDS: Record<FamilyId, readonly StandardCarrierField[]> = {
  'openai-chat': ['reasoning_content', 'reasoning', 'reasoning_details'],
  copilot: ['reasoning_content', 'reasoning'],
  'anthropic-messages': ['reasoning_details'],
  'bedrock-converse': ['reasoning_details'],
  // Gemini reads no standard carrier: its reasoning travels as thoughtSignature in the native record.
  gemini: [],
  'openai-responses': ['reasoning_details'],
};
