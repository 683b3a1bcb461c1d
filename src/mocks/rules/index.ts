import type { ProviderSpec } from '../../providers/provider-spec.js';
import type { FamilyId } from '../../wire/families.js';
import type { Finding } from '../finding.js';
import { judgeAnthropicMessages } from './anthropic-messages.js';
import { judgeBedrockConverse } from './bedrock-converse.js';
import { judgeCopilot } from './copilot.js';
import { judgeGemini } from './gemini.js';
import { judgeOpenAIResponses } from './openai-responses.js';
import { judgeMessageEchoes } from './message-echo-judge.js';
import { judgeRequestSchema } from './request-schema-judge.js';

/** A family's own request rules (signatures, pairing, required native carriers). Pure: spec + body in, findings out. */
export type RequestJudge = (spec: ProviderSpec, body: unknown) => Finding[];

/** Families register their judges here; the schema check runs for every family first. */
const familyJudges: Partial<Record<FamilyId, RequestJudge[]>> = {
  'openai-chat': [judgeMessageEchoes],
  // Copilot wants its opaque back on the current tool turn only; its own judge scopes that.
  copilot: [judgeCopilot],
  gemini: [judgeGemini],
  'openai-responses': [judgeOpenAIResponses],
  'anthropic-messages': [judgeAnthropicMessages],
  'bedrock-converse': [judgeBedrockConverse],
};

export function judgeRequest(spec: ProviderSpec, body: unknown): Finding[] {
  const schema = judgeRequestSchema(spec, body);
  // A provider that fails schema validation never gets as far as its semantic checks.
  if (schema.length > 0) return schema;
  return (familyJudges[spec.family] ?? []).flatMap((judge) => judge(spec, body));
}
