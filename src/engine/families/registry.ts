import { FAMILY_IDS, type FamilyId } from '../../shared/wire/families.js';
import type { Family } from './family.js';
import { anthropicMessagesFamily } from './anthropic-messages/index.js';
import { bedrockConverseFamily } from './bedrock-converse/index.js';
import { copilotFamily } from './copilot/index.js';
import { geminiFamily } from './gemini/index.js';
import { openAIChatFamily } from './openai-chat/index.js';
import { openAIResponsesFamily } from './openai-responses/index.js';
import { InvariantError } from '../../shared/errors/invariant-error.js';

/**
 * The engine's implementation of every family described in src/shared/wire/families.ts. The type makes
 * the list exhaustive: a family described there but not implemented here is a compile error, so
 * a route can never resolve to a family the engine silently lacks.
 */
const families: Readonly<Record<FamilyId, Family>> = {
  'openai-chat': openAIChatFamily,
  'anthropic-messages': anthropicMessagesFamily,
  'bedrock-converse': bedrockConverseFamily,
  gemini: geminiFamily,
  copilot: copilotFamily,
  'openai-responses': openAIResponsesFamily,
};

export function familyFor(id: FamilyId): Family {
  const family = families[id] as Family | undefined;
  if (!family) throw new InvariantError(`no wire family "${id}" is implemented`);
  return family;
}

/** Families in descriptor order. */
export function implementedFamilies(): FamilyId[] {
  return FAMILY_IDS.filter((id) => families[id] !== undefined);
}
