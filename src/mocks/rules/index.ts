import type { ProviderSpec } from '../../providers/provider-spec.js';
import type { FamilyId } from '../../wire/families.js';
import type { Finding } from '../finding.js';
import { judgeAnthropicMessages } from './anthropic-messages.js';
import { judgeBedrockConverse } from './bedrock-converse.js';
import { judgeCopilot } from './copilot.js';
import { judgeGemini } from './gemini.js';
import { judgeOpenAIResponses } from './openai-responses.js';
import { judgeForbiddenFields } from './forbidden-fields.js';
import { judgeGatewayUpstream } from './gateway-upstream.js';
import { judgeMessageEchoes } from './message-echo-judge.js';
import { judgeRequestSchema } from './request-schema-judge.js';

/** A family's own request rules (signatures, pairing, required native carriers). Pure: spec + body in, findings out. */
export type RequestJudge = (spec: ProviderSpec, body: unknown) => Finding[];

/** Families register their judges here; the schema check runs for every family first. */
const familyJudges: Partial<Record<FamilyId, RequestJudge[]>> = {
  // A gateway's chat body is also judged by its upstream's rules (spec `upstreams`).
  'openai-chat': [judgeMessageEchoes, judgeGatewayUpstream],
  // Copilot wants its opaque back on the current tool turn only; its own judge scopes that.
  copilot: [judgeCopilot],
  gemini: [judgeGemini],
  'openai-responses': [judgeOpenAIResponses],
  'anthropic-messages': [judgeAnthropicMessages],
  'bedrock-converse': [judgeBedrockConverse],
};

/**
 * Everything the provider would say about this body, first answer first. `spec` is the rule set
 * for the request's model (specForModel). Contested findings go last: the mock answers with the
 * first finding, and an undisputed violation is the one to hear about.
 */
export function judgeRequest(spec: ProviderSpec, body: unknown): Finding[] {
  const schema = judgeRequestSchema(spec, body);
  // A provider that fails schema validation never gets as far as its semantic checks.
  if (schema.length > 0) return schema;
  const findings = [judgeForbiddenFields, ...(familyJudges[spec.family] ?? [])].flatMap((judge) => judge(spec, body));
  return [...findings.filter((f) => !f.contested), ...findings.filter((f) => f.contested)];
}
