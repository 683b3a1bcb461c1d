/**
 * The wire API families, named once. Both sides read this: the engine builds requests in these
 * shapes, the provider side answers in them. It holds names and wire facts only, no rule about
 * what should be sent, so sharing it cannot hide a bug shared by the engine and its judges.
 */
export const FAMILY_IDS = ['openai-chat', 'anthropic-messages', 'bedrock-converse', 'gemini', 'openai-responses', 'copilot'] as const;

export type FamilyId = (typeof FAMILY_IDS)[number];
