import type { FamilyId } from '../wire/families.js';
import type { AnswerRenderer } from './answer-renderer.js';
import { anthropicMessagesClientTools } from './anthropic-messages/client-tools.js';
import { renderAnthropicMessagesAnswer } from './anthropic-messages/render-answer.js';
import { bedrockConverseClientTools } from './bedrock-converse/client-tools.js';
import { renderBedrockConverseAnswer } from './bedrock-converse/render-answer.js';
import type { ClientToolReading } from './client-tools.js';
import { copilotClientTools } from './copilot/client-tools.js';
import { renderCopilotAnswer } from './copilot/render-answer.js';
import { geminiClientTools } from './gemini/client-tools.js';
import { renderGeminiAnswer } from './gemini/render-answer.js';
import { openAIChatClientTools } from './openai-chat/client-tools.js';
import { renderOpenAIChatAnswer } from './openai-chat/render-answer.js';
import { openAIResponsesClientTools } from './openai-responses/client-tools.js';
import { renderOpenAIResponsesAnswer } from './openai-responses/render-answer.js';
import { judgeAnthropicMessages } from './rules/anthropic-messages.js';
import { judgeBedrockConverse } from './rules/bedrock-converse.js';
import { judgeCopilot } from './rules/copilot.js';
import { judgeGatewayUpstream } from './rules/gateway-upstream.js';
import { judgeGemini } from './rules/gemini.js';
import type { RequestJudge } from './rules/index.js';
import { judgeMessageEchoes } from './rules/message-echo-judge.js';
import { judgeMessageRules } from './rules/message-rules-judge.js';
import { judgeOpenAIResponses } from './rules/openai-responses.js';

/** What the provider side knows of one wire family: how its providers answer, and how they judge a request. */
export interface ProviderSideFamily {
  /** Renders a scripted answer in the family's wire shape (fixture synthesis). */
  renderAnswer: AnswerRenderer;
  /** The family's own request rules, run after the provider's schema and forbidden-field checks. */
  judges: readonly RequestJudge[];
  /** How a client's request declares its own tools and closes a tool round (serve's follow mode). */
  clientTools: ClientToolReading;
}

/**
 * The provider side's registration of every family described in src/wire/families.ts; the type
 * makes it exhaustive (a described family missing here is a compile error).
 */
export const PROVIDER_SIDE_FAMILIES: Readonly<Record<FamilyId, ProviderSideFamily>> = {
  // A gateway's chat body is also judged by its upstream's rules (spec `upstreams`); per-message rules are spec data (`messageRules`).
  'openai-chat': { renderAnswer: renderOpenAIChatAnswer, judges: [judgeMessageEchoes, judgeMessageRules, judgeGatewayUpstream], clientTools: openAIChatClientTools },
  // Copilot wants its opaque back on the current tool turn only; its own judge scopes that.
  copilot: { renderAnswer: renderCopilotAnswer, judges: [judgeCopilot], clientTools: copilotClientTools },
  gemini: { renderAnswer: renderGeminiAnswer, judges: [judgeGemini], clientTools: geminiClientTools },
  'openai-responses': { renderAnswer: renderOpenAIResponsesAnswer, judges: [judgeOpenAIResponses], clientTools: openAIResponsesClientTools },
  'anthropic-messages': { renderAnswer: renderAnthropicMessagesAnswer, judges: [judgeAnthropicMessages], clientTools: anthropicMessagesClientTools },
  'bedrock-converse': { renderAnswer: renderBedrockConverseAnswer, judges: [judgeBedrockConverse], clientTools: bedrockConverseClientTools },
};
