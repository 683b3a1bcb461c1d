/**
 * Issue 40, the corpus grown by method: cases gathered provider by provider and rule class by rule class from
 * public reports and changelogs dated June to December 2026 (and the 2026 threads they cite), each with the date
 * its behaviour was observed. They were written from the sources without looking at the mocks, and a case is never
 * changed to fit a mock: each one below disagreed with the mocks of the day it was added. The comment above an
 * entry says why it disagrees; the value is the difference measured then. They are the request-rule owners'
 * backlog, read by the replay test through KNOWN_DISAGREEMENTS like every other entry.
 */
export const GROWN_CORPUS_DISAGREEMENTS: ReadonlyArray<readonly [string, string]> = [
  // BEGIN generated entries (one per case; keep sorted by id)
  // model-and-endpoint: the mock still serves claude-sonnet-4-0 after its retirement
  ['anthropic-claude-sonnet-4-0-retired-coco', 'real=404 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock does not know Fable 5 refuses thinking disabled
  [
    'anthropic-fable-5-thinking-disabled-refused-librechat',
    'real=400 ""thinking.type.disabled" is not supported for this model. Thinking defaults to adaptive mode when not specified", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know Fable 5 refuses thinking enabled
  [
    'anthropic-fable-5-thinking-enabled-refused-kimi-code',
    'real=400 ""thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.", mock=accepted',
  ],
  // reasoning-parameters: the mock refuses forced tool_choice only with thinking enabled, not adaptive
  [
    'anthropic-forced-tool-with-adaptive-thinking-omniroute',
    'real=400 "Thinking may not be enabled when tool_choice forces tool use.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse temperature on Opus 4.7
  ['anthropic-opus-4-7-temperature-deprecated-9router', 'real=400 "`temperature` is deprecated", mock=accepted'],
  // reasoning-parameters: the mock does not tie the allowed effort to the thinking mode on Opus 5
  [
    'anthropic-opus-5-thinking-disabled-effort-xhigh-refused-claude-code',
    "real=400 \"output_config.effort 'xhigh' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.\", mock=accepted",
  ],
  // reasoning-parameters: the mock takes an effort member inside thinking {type: adaptive}
  [
    'anthropic-sonnet-46-effort-inside-adaptive-thinking-sub2api',
    'real=400 "thinking.adaptive.effort: Extra inputs are not permitted", mock=400 "error invalid_request_error thinking.effort: Extra inputs are not permitted req_mock"',
  ],
  // reasoning-parameters: the mock does not know Sonnet 5 refuses temperature
  [
    'anthropic-sonnet-5-temperature-deprecated-sim',
    'real=400 "`temperature` is deprecated for this model", mock=accepted',
  ],
  // reasoning-signature: the mock binds a signature to its text and ordinal, not to the system prompt it was made under
  [
    'anthropic-thinking-bound-to-other-system-prompt-opencode',
    'real=400 "The block is bound to a different conversation", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know this Claude model refuses thinking type enabled on Bedrock
  [
    'bedrock-claude-opus-5-thinking-enabled-converse-pi',
    'real=400 "The model returned the following errors: "thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.", mock=accepted',
  ],
  // history-structure: the mock accepts a reasoning-only assistant turn before a user turn on Sonnet 5
  [
    'bedrock-claude-sonnet-5-reasoning-only-turn-prefill-hermes',
    'real=400 "This model does not support assistant message prefill. The conversation must end with a user message.", mock=accepted',
  ],
  // reasoning-parameters: the mock's closed Cerebras schema does not list clear_thinking
  [
    'cerebras-glm-47-clear-thinking-accepted-modelparams',
    'real=accepted, mock=400 "body.clear_thinking: property \'body.clear_thinking\' is unsupported invalid_request_error validation_error wrong_api_format"',
  ],
  // reasoning-parameters: the mock does not validate reasoning_effort values on Cerebras
  [
    'cerebras-glm-47-reasoning-effort-default-refused-modelparams',
    "real=400 \"Input should be 'none', 'low', 'medium' or 'high'\", mock=accepted",
  ],
  // model-and-endpoint: the mock still serves a model Cerebras removed
  ['cerebras-retired-qwen-3-235b-404-genesis', 'real=404 (wording not quoted), mock=accepted'],
  // request-schema: the mock takes tool_choice without tools on Cerebras
  [
    'cerebras-tool-choice-without-tools-neurolink',
    "real=400 \"'tool_choice' is only allowed when 'tools' are specified\", mock=accepted",
  ],
  // reasoning-parameters: the mock does not refuse reasoning_effort for Copilot's Claude models
  [
    'copilot-claude-sonnet-45-reasoning-effort-crush',
    'real=400 "reasoning_effort "high" was provided, but model claude-sonnet-4.5 does not support reasoning effort", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse reasoning_effort for Copilot's Claude models
  ['copilot-cli-claude-sonnet-46-reasoning-effort-high', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the Copilot mock takes reasoning_effort on gpt-4.1
  [
    'copilot-gpt41-reasoning-effort-wechat-acp',
    'real=400 "Unrecognized request argument supplied: reasoning_effort", mock=accepted',
  ],
  // reasoning-parameters: the Copilot mock does not check effort values per model
  [
    'copilot-gpt5-mini-reasoning-effort-xhigh-ccs',
    "real=400 \"Unsupported value: 'reasoning_effort' does not support 'xhigh' with this model. Supported values are: 'minimal', 'low', 'medium', and 'high'.\", mock=accepted",
  ],
  // reasoning-parameters: the mock takes max_tokens for Copilot's gpt-5.4
  ['copilot-gpt54-max-tokens-copilot-api', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the Copilot mock does not pass on OpenAI's function-tools-with-effort refusal
  [
    'copilot-gpt56-sol-tools-with-effort-github-app',
    'real=400 "Function tools with reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to \'none\'.", mock=accepted',
  ],
  // reasoning-parameters: the Copilot mock does not pass on OpenAI's function-tools-with-effort refusal
  [
    'copilot-gpt56-terra-tools-with-effort-github-app',
    'real=400 "Function tools with reasoning_effort are not supported for gpt-5.6-terra in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to \'none\'.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not bound thinking_budget by the model
  [
    'dashscope-qwen-turbo-thinking-budget-above-max-cherry',
    'real=400 "The thinking_budget parameter must be a positive integer and not greater than 38912", mock=accepted',
  ],
  // reasoning-parameters: the mock does not require thinking_budget beside enable_thinking for qwen3.5-27b
  [
    'dashscope-qwen35-27b-enable-thinking-without-budget-qwen-agent',
    'real=400 "The thinking_budget parameter must be a positive integer and not greater than", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know qwen3.8-max-preview only thinks
  [
    'dashscope-qwen38-max-enable-thinking-false-refused-qwen-code',
    'real=400 "The value of the enable_thinking parameter is restricted to True.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not check DashScope reasoning_effort values
  [
    'dashscope-qwen38-reasoning-effort-value-refused-gcmp',
    "real=400 \"'reasoning_effort' must be one of: 'none', 'minimal', 'low', 'medium', 'high', 'xhigh'\", mock=accepted",
  ],
  // reasoning-echo: the mock answers the V4 wording for this refusal, not the V3.2 one
  [
    'deepseek-reasoner-missing-reasoning-content-nocobase',
    'real=400 "Missing `reasoning_content` field in the assistant message at message index", mock=400 "The `reasoning_content` in the thinking mode must be passed back to the API. invalid_request_error invalid_request_error"',
  ],
  // reasoning-parameters: the mock types reasoning_effort as any string; DeepSeek takes only high, low, medium, max, xhigh
  [
    'deepseek-reasoning-effort-none-unknown-variant-docutranslate',
    'real=400 "reasoning_effort: unknown variant `none`, expected one of `high`, `low`, `medium`, `max`, `xhigh`", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse a forced tool_choice while V4 thinks by default
  [
    'deepseek-v4-flash-tool-choice-required-thinking-litellm',
    'real=400 "Thinking mode does not support this tool_choice", mock=accepted',
  ],
  // history-structure: the mock schema lists a developer role that DeepSeek does not know
  [
    'deepseek-v4-pro-developer-role-unknown-variant-9router',
    'real=400 "messages[1].role: unknown variant `developer`, expected one of `system`, `user`, `assistant`, `tool`", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse a forced tool_choice while V4 thinks by default
  [
    'deepseek-v4-pro-named-tool-choice-thinking-default',
    'real=400 "Thinking mode does not support this tool_choice", mock=accepted',
  ],
  // reasoning-parameters: the mock does not validate reasoning_effort values on DeepSeek
  ['deepseek-v4-reasoning-effort-off-unknown-variant-openclacky', 'real=400 "unknown variant `off`", mock=accepted'],
  // reasoning-parameters: the mock accepts any reasoning_effort string on Fireworks
  ['fireworks-glm-52-reasoning-effort-minimal-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock lets reasoning_effort none switch thinking off on every Fireworks model
  ['fireworks-glm-53-reasoning-effort-none-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock lets thinking disabled through on every Fireworks model
  ['fireworks-glm-53-thinking-disabled-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock does not type-check reasoning_effort on Fireworks
  ['fireworks-kimi-k3-reasoning-effort-boolean-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock takes thinkingLevel MEDIUM on gemini-3-pro-preview
  [
    'gemini-3-pro-thinking-level-medium-chatwise',
    'real=400 "Thinking level MEDIUM is not supported for this model. Please retry with other thinking level.", mock=accepted',
  ],
  // reasoning-parameters: the mock lets thinkingBudget 0 through on Gemini 3.x Flash models
  ['gemini-36-flash-thinking-budget-zero-opencode', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock takes thinkingBudget and thinkingLevel together
  [
    'gemini-flash-latest-budget-and-level-eclipse-peon',
    'real=400 "You can only set only one of thinking budget and thinking level.", mock=accepted',
  ],
  // model-and-endpoint: the mock does not know gemma2-9b-it was decommissioned
  [
    'groq-gemma2-9b-it-decommissioned-openfang',
    'real=400 "The model gemma2-9b-it has been decommissioned and is no longer supported.", mock=accepted',
  ],
  // model-and-endpoint: the mock still serves llama-3.3-70b-versatile after its 2026-08-16 decommission
  [
    'groq-llama-33-70b-after-decommission-automation-suggester',
    'real=404 "The model `llama-3.3-70b-versatile` does not exist or you do not have access to it.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not check reasoning_effort values on Groq qwen3.6
  [
    'groq-qwen36-reasoning-effort-refused-free-claude-code',
    'real=400 "`reasoning_effort` must be one of `none` or `default`", mock=accepted',
  ],
  // history-structure: the mock takes a tool message whose content is a list of parts
  ['lmstudio-tool-content-as-list-hermes', 'real=400 "invalid \'messages\' in payload", mock=accepted'],
  // request-schema: the mock does not require a type on MiniMax tools
  ['minimax-m3-tool-without-type-9router', 'real=400 "invalid params, invalid tool type: (2013)", mock=accepted'],
  // history-structure: the mock takes a function tool without parameters
  [
    'minimax-tool-without-parameters-qwen-code',
    'real=400 "invalid params, function parameters is empty (2013)", mock=accepted',
  ],
  // reasoning-parameters: the provider answered 200; the mock refuses it
  [
    'mistral-glm-53-reasoning-effort-max-accepted',
    "real=accepted, mock=422 \"error reasoning-replay mock: Mistral (strict)'s wording for a malformed body is not public; the request fails at 'reasoning_effort' invalid_request_error\"",
  ],
  // reasoning-parameters: the mock does not check reasoning_effort values per Mistral-served model
  ['mistral-glm-53-reasoning-effort-medium-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock does not know prompt_mode, or which models refuse the reasoning prompt mode
  [
    'mistral-magistral-prompt-mode-refused-pi-go',
    'real=400 "Reasoning prompt mode is not enabled for this model", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know prompt_mode, or which models refuse the reasoning prompt mode
  [
    'mistral-magistral-small-alias-prompt-mode-refused-spring-ai',
    'real=400 "Reasoning prompt mode is not enabled for this model", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know prompt_mode, or which models refuse the reasoning prompt mode
  [
    'mistral-small-4-prompt-mode-reasoning-refused-pi',
    'real=400 "Reasoning prompt mode is not enabled for this model", mock=accepted',
  ],
  // history-structure: the mock takes an empty assistant message on Moonshot
  [
    'moonshot-empty-assistant-message-opencowork',
    'real=400 "with role \'assistant\' must not be empty", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse a forced tool_choice while K2.6 thinks by default
  [
    'moonshot-kimi-k26-forced-tool-choice-thinking-oh-my-pi',
    'real=400 "tool_choice specified is incompatible with thinking enabled", mock=accepted',
  ],
  // reasoning-parameters: the mock does not type-check enable_thinking on Novita
  ['novita-deepseek-v4-flash-enable-thinking-non-boolean-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the Ollama Cloud mock takes every reasoning_effort value
  ['ollama-cloud-glm-53-flash-effort-minimal-refused', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the Ollama Cloud mock takes every reasoning_effort value
  ['ollama-cloud-glm-53-flash-effort-xhigh-refused', 'real=400 (wording not quoted), mock=accepted'],
  // model-and-endpoint: the mock serves every cloud model regardless of the account tier
  [
    'ollama-cloud-kimi-k26-free-tier-subscription-403-enviouswispr',
    'real=403 "this model requires a subscription", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse function tools with a reasoning effort on gpt-5.4
  [
    'openai-chat-gpt54-tools-low-effort-pipecat',
    'real=400 "Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. Please use /v1/responses instead.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse function tools with a reasoning effort on gpt-5.4
  ['openai-chat-gpt54-tools-medium-effort-openapi', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock does not check reasoning_effort values per GPT-5.6 model on chat completions
  [
    'openai-chat-gpt56-effort-minimal-refused-livekit',
    "real=400 \"Unsupported value: 'reasoning_effort' does not support 'minimal' with this model. Supported values are: 'none', 'low', 'medium', 'high', 'xhigh'.\", mock=accepted",
  ],
  // reasoning-parameters: the mock names the gpt-5.6 refusal for fewer model ids than OpenAI applies it to
  [
    'openai-chat-gpt56-terra-tools-default-effort-webmcp',
    'real=400 "Function tools with reasoning_effort are not supported for gpt-5.6-terra in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to \'none\'.", mock=400 "Function tools with reasoning_effort are not supported for gpt-5.6-terra in /v1/chat/completions. invalid_request_error"',
  ],
  // reasoning-parameters: the mock's message stops after the first sentence; OpenAI's adds the /v1/responses or reasoning_effort 'none' advice
  [
    'openai-chat-gpt56-terra-tools-with-effort-leviath',
    'real=400 "Function tools with reasoning_effort are not supported for gpt-5.6-terra in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to \'none\'.", mock=400 "Function tools with reasoning_effort are not supported for gpt-5.6-terra in /v1/chat/completions. invalid_request_error"',
  ],
  // reasoning-parameters: the mock names the function-tools-with-effort refusal for fewer model ids than OpenAI applies it to
  [
    'openai-chat-gpt6-sol-tools-with-effort-onyx',
    'real=400 "Function tools with reasoning_effort are not supported for gpt-6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to \'none\'.", mock=accepted',
  ],
  // reasoning-parameters: the mock names mandatory reasoning for fewer models than OpenRouter does
  [
    'openrouter-gemini-35-flash-reasoning-mandatory-kilo',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know google/gemini-3.7-flash is reasoning-mandatory
  [
    'openrouter-gemini-37-flash-reasoning-disabled-mandatory-rakazo',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-parameters: the mock names mandatory reasoning for fewer models than OpenRouter does
  [
    'openrouter-minimax-m25-include-reasoning-false-ccr',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know minimax/minimax-m3 is reasoning-mandatory on OpenRouter
  [
    'openrouter-minimax-m3-reasoning-effort-none-mandatory-eval-connections',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know stealth/ox-alpha is reasoning-mandatory
  [
    'openrouter-stealth-ox-alpha-reasoning-effort-none-mandatory-pi',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not know stepfun/step-3.7-flash is reasoning-mandatory on OpenRouter
  [
    'openrouter-step-37-flash-reasoning-disabled-mandatory-eval-connections',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-parameters: the mock names mandatory reasoning for fewer models than OpenRouter does
  [
    'openrouter-stepfun-reasoning-mandatory-pi',
    'real=400 "Reasoning is mandatory for this endpoint and cannot be disabled.", mock=accepted',
  ],
  // reasoning-signature: the mock answers a store:false reasoning item without encrypted_content with the not-persisted 404, not invalid_encrypted_content
  [
    'responses-gpt55-stale-reasoning-without-encrypted-content-sub2api',
    'real=400 "could not be verified. Reason: Encrypted content could not be decrypted or parsed.", mock=404 "Item with id \'rs_stale1\' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your inpu"',
  ],
  // reasoning-parameters: the mock does not check effort values per GPT-5.6 model
  [
    'responses-gpt56-luna-effort-minimal-refused',
    "real=400 \"Unsupported value: 'minimal' is not supported with the 'gpt-5.6-luna' model. Supported values are: 'none', 'low', 'medium', 'high', 'xhigh', and 'max'.\", mock=400 \"Unsupported value: 'minimal' is not supported with the 'gpt-5.6-luna' model. invalid_request_error reasoning.effort unsupported_value\"",
  ],
  // reasoning-parameters: the provider answered 200; the mock refuses it
  [
    'responses-gpt56-sol-effort-minimal-accepted',
    "real=accepted, mock=400 \"Unsupported value: 'minimal' is not supported with the 'gpt-5.6-sol' model. invalid_request_error reasoning.effort unsupported_value\"",
  ],
  // history-structure: the mock checks that some item follows a reasoning item, not that each item follows its own reasoning item
  [
    'responses-message-separated-from-reasoning-by-call-continue',
    'real=400 "was provided without its required \'reasoning\' item", mock=accepted',
  ],
  // reasoning-parameters: the mock does not refuse hosted tools with reasoning.effort minimal
  [
    'responses-minimal-effort-with-file-search-open-chat-studio',
    'real=400 "The following tools cannot be used with reasoning.effort \'minimal\': file_search.", mock=accepted',
  ],
  // reasoning-parameters: the mock does not validate reasoning_effort values on TokenHub
  [
    'tencent-tokenhub-reasoning-effort-off-unknown-variant-reasonix',
    'real=400 "reasoning_effort: unknown variant `off`, expected one of `none`, `minimal`, `low`, `medium`, `high`, `xhigh`", mock=accepted',
  ],
  // request-schema: the mock does not cap non-streaming max_tokens for Anthropic models on the gateway
  [
    'vercel-ai-gateway-opus-5-non-streaming-max-tokens-over-21k-refused',
    'real=400 "max output tokens plus reasoning effort tokens must be under 21K for anthropic/claude-opus-5", mock=accepted',
  ],
  // history-structure: the mock does not count function responses against the calls of the turn before
  [
    'vertex-gemini-3-flash-fewer-responses-than-calls-gemini-cli',
    'real=400 "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.", mock=accepted',
  ],
  // history-structure: the mock does not count function responses against the calls of the turn before
  [
    'vertex-gemini-3-pro-fewer-responses-than-calls-gemini-cli',
    'real=400 "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.", mock=accepted',
  ],
  // reasoning-parameters: the vLLM mock takes any reasoning_effort; vLLM fails in the chat template
  ['vllm-qwen38-reasoning-effort-high-template-500', 'real=500 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock does not refuse reasoning.effort on grok-build-0.1
  [
    'xai-responses-grok-build-reasoning-effort-unsupported-pi',
    'real=400 "Model grok-build-0.1 does not support parameter reasoningEffort.", mock=accepted',
  ],
  // reasoning-parameters: the mock answers the api.z.ai English wording; the bigmodel.cn host answers in Chinese
  [
    'zhipu-glm-53-flash-thinking-disabled-chinese-openmaic',
    'real=400 "该模型始终思考，不支持关闭思考；请使用 low、high 或 max。", mock=400 "1210 This model always engages in thinking and cannot be disabled; please use low, high, or max"',
  ],
  // reasoning-parameters: the mock does not validate reasoning_effort on Z.ai
  [
    'zhipu-glm-53-reasoning-effort-bogus-refused-glm-acp-agent',
    'real=400 "reasoning_effort must be one of: none, minimal, low, medium, high, xhigh, max", mock=accepted',
  ],
  // reasoning-parameters: outranked by the newer Coding Plan refusal of 2026-08-19; the mock follows the newer observation
  [
    'zhipu-glm-53-thinking-disabled-coding-plan-accepted-glm-acp-agent',
    'real=accepted, mock=400 "1210 This model always engages in thinking and cannot be disabled; please use low, high, or max"',
  ],
  // END generated entries
];
