import type { FamilyId } from '../../shared/wire/families.js';
import type { AnswerRenderer } from '../answers/answer-renderer.js';
import { anthropicMessagesClientTools } from '../families/anthropic-messages/client-tools.js';
import { renderAnthropicMessagesAnswer } from '../families/anthropic-messages/render-answer.js';
import { bedrockConverseClientTools } from '../families/bedrock-converse/client-tools.js';
import { renderBedrockConverseAnswer } from '../families/bedrock-converse/render-answer.js';
import type { ClientToolReading } from '../answers/client-tools.js';
import { copilotClientTools } from '../families/copilot/client-tools.js';
import { renderCopilotAnswer } from '../families/copilot/render-answer.js';
import { geminiClientTools } from '../families/gemini/client-tools.js';
import { renderGeminiAnswer } from '../families/gemini/render-answer.js';
import { openAIChatClientTools } from '../families/openai-chat/client-tools.js';
import { renderOpenAIChatAnswer } from '../families/openai-chat/render-answer.js';
import { openAIResponsesClientTools } from '../families/openai-responses/client-tools.js';
import { renderOpenAIResponsesAnswer } from '../families/openai-responses/render-answer.js';
import { judgeAnthropicMessages } from '../families/anthropic-messages/request-rules.js';
import { judgeBedrockConverse } from '../families/bedrock-converse/request-rules.js';
import { judgeCopilot } from '../families/copilot/request-rules.js';
import { judgeGatewayUpstream } from '../rules/gateway-upstream.js';
import { judgeGemini } from '../families/gemini/request-rules.js';
import type { RequestJudge } from '../rules/request-judge.js';
import { judgeMessageEchoes } from '../rules/message-echo-judge.js';
import { judgeMessageRules } from '../rules/message-rules-judge.js';
import { judgeReplayBudget } from '../rules/replay-budget-judge.js';
import { judgeOpenAIResponses } from '../families/openai-responses/request-rules.js';

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
 * The provider side's registration of every family described in src/shared/wire/families.ts; the type
 * makes it exhaustive (a described family missing here is a compile error).
 */
export const PROVIDER_SIDE_FAMILIES: Readonly<Record<FamilyId, ProviderSideFamily>> = {
  // A gateway's chat body is also judged by its upstream's rules (spec `upstreams`). In every family, the history's
  // structure (roles, tool-call pairing, empty items) is spec data (`messageRules`) judged by one generic judge, and so
  // is a budget on replayed reasoning (`replayBudget`).
  'openai-chat': {
    renderAnswer: renderOpenAIChatAnswer,
    judges: [judgeMessageEchoes, judgeMessageRules, judgeGatewayUpstream, judgeReplayBudget],
    clientTools: openAIChatClientTools,
  },
  // Copilot wants its opaque back on the current tool turn only; its own judge scopes that.
  copilot: {
    renderAnswer: renderCopilotAnswer,
    judges: [judgeCopilot, judgeMessageRules],
    clientTools: copilotClientTools,
  },
  gemini: {
    renderAnswer: renderGeminiAnswer,
    judges: [judgeGemini, judgeMessageRules],
    clientTools: geminiClientTools,
  },
  'openai-responses': {
    renderAnswer: renderOpenAIResponsesAnswer,
    judges: [judgeOpenAIResponses, judgeMessageRules],
    clientTools: openAIResponsesClientTools,
  },
  'anthropic-messages': {
    renderAnswer: renderAnthropicMessagesAnswer,
    judges: [judgeAnthropicMessages, judgeMessageRules],
    clientTools: anthropicMessagesClientTools,
  },
  'bedrock-converse': {
    renderAnswer: renderBedrockConverseAnswer,
    judges: [judgeBedrockConverse, judgeMessageRules],
    clientTools: bedrockConverseClientTools,
  },
};
