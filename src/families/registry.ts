import type { FamilyId } from '../routes/route-table.js';
import type { Family } from './family.js';
import { anthropicMessagesFamily } from './anthropic-messages/index.js';
import { bedrockConverseFamily } from './bedrock-converse/index.js';
import { copilotFamily } from './copilot/index.js';
import { geminiFamily } from './gemini/index.js';
import { openAIChatFamily } from './openai-chat/index.js';
import { openAIResponsesFamily } from './openai-responses/index.js';

/** Families register here; a route whose family is missing fails loudly rather than falling back. */
const families = new Map<FamilyId, Family>([
  [openAIChatFamily.id, openAIChatFamily],
  [anthropicMessagesFamily.id, anthropicMessagesFamily],
  [bedrockConverseFamily.id, bedrockConverseFamily],
  [geminiFamily.id, geminiFamily],
  [copilotFamily.id, copilotFamily],
  [openAIResponsesFamily.id, openAIResponsesFamily],
]);

export function familyFor(id: FamilyId): Family {
  const family = families.get(id);
  if (!family) throw new Error(`no wire family "${id}" is implemented`);
  return family;
}

export function implementedFamilies(): FamilyId[] {
  return [...families.keys()];
}
