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
  // reasoning-signature: the mock binds a signature to its text and ordinal, not to the system prompt it was made under
  [
    'anthropic-thinking-bound-to-other-system-prompt-opencode',
    'real=400 "The block is bound to a different conversation", mock=accepted',
  ],
  // reasoning-signature: a turn whose reasoningContent follows text gets the mock's final-turn message, not Bedrock's first-block-must-be-thinking one
  [
    'bedrock-claude-sonnet-4-reasoning-after-text-agentcore',
    'real=400 "If an assistant message contains any thinking blocks, the first block must be thinking. Found text", mock=400 "The model returned the following errors: messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a "',
  ],
  // history-structure: the mock accepts a reasoning-only assistant turn before a user turn on Sonnet 5
  [
    'bedrock-claude-sonnet-5-reasoning-only-turn-prefill-hermes',
    'real=400 "This model does not support assistant message prefill. The conversation must end with a user message.", mock=accepted',
  ],
  // model-and-endpoint: no Bedrock mock serves OpenAI's GPT-5.6 on Converse (the gpt-oss spec routes gpt-oss model ids only)
  [
    'bedrock-gpt-56-flat-reasoning-effort-refused-opencode',
    'real=400 "Unknown parameter: \'reasoning_effort\'.", mock=no mock serves https://bedrock-runtime.us-west-2.amazonaws.com/model/us.openai.gpt-5.6-sol/converse',
  ],
  // model-and-endpoint: no Bedrock mock serves OpenAI's GPT-5.6 on Converse (the gpt-oss spec routes gpt-oss model ids only)
  [
    'bedrock-gpt-56-nested-reasoning-effort-accepted-suna',
    'real=accepted, mock=no mock serves https://bedrock-runtime.us-west-2.amazonaws.com/model/global.openai.gpt-5.6-sol/converse',
  ],
  // model-and-endpoint: no Bedrock mock serves OpenAI's GPT-5.6 on Converse (the gpt-oss spec routes gpt-oss model ids only)
  [
    'bedrock-gpt-56-terra-thinking-unknown-parameter-agentgateway',
    'real=400 "Unknown parameter: \'thinking\'.", mock=no mock serves https://bedrock-runtime.us-west-2.amazonaws.com/model/us.openai.gpt-5.6-terra/converse',
  ],
  // reasoning-parameters: the mock's closed Cerebras schema does not list clear_thinking
  [
    'cerebras-glm-47-clear-thinking-accepted-modelparams',
    'real=accepted, mock=400 "body.clear_thinking: property \'body.clear_thinking\' is unsupported invalid_request_error validation_error wrong_api_format"',
  ],
  // model-and-endpoint: the mock still serves a model Cerebras removed
  ['cerebras-retired-qwen-3-235b-404-genesis', 'real=404 (wording not quoted), mock=accepted'],
  // request-schema: the mock takes tool_choice without tools on Cerebras
  [
    'cerebras-tool-choice-without-tools-neurolink',
    "real=400 \"'tool_choice' is only allowed when 'tools' are specified\", mock=accepted",
  ],
  // model-and-endpoint: the Copilot mock serves no Messages path (/v1/messages), where Claude Code sends output_config.effort
  [
    'copilot-claude-haiku-45-output-config-effort-copilot-api',
    'real=400 "output_config.effort "high" was provided, but model claude-haiku-4.5 does not support reasoning effort", mock=no mock serves https://api.githubcopilot.com/v1/messages',
  ],
  // history-structure: the Copilot mock does not pair a Claude tool call with its result in the next message
  [
    'copilot-claude-sonnet-46-tool-call-without-result-magic-context',
    'real=400 "`tool_use` ids were found without `tool_result` blocks immediately after", mock=accepted',
  ],
  // reasoning-parameters: the mock takes max_tokens for Copilot's gpt-5.4
  ['copilot-gpt54-max-tokens-copilot-api', 'real=400 (wording not quoted), mock=accepted'],
  // reasoning-parameters: superseded. deepseek-reasoner refused tools while it served R1 (2025); the thinking mode
  // documents tool calls since V3.2 and a recorded exchange shows them answered: the newer observation holds.
  [
    'deepseek-reasoner-function-calling-unsupported-fast-agent',
    'real=400 "deepseek-reasoner does not support Function Calling", mock=accepted',
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
  // history-structure: the mock schema lists a developer role that DeepSeek does not know
  [
    'deepseek-v4-pro-developer-role-unknown-variant-9router',
    'real=400 "messages[1].role: unknown variant `developer`, expected one of `system`, `user`, `assistant`, `tool`", mock=accepted',
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
  // reasoning-field: the Kilo mock refuses a string reasoning_details with its own 400; the gateway failed with 500
  [
    'kilo-kimi-k26-reasoning-details-string-500-models-dev',
    "real=500 (wording not quoted), mock=400 \"reasoning-replay mock: Kilo Gateway's wording for a malformed body is not public; the request fails at 'messages.1.reasoning_details' invalid_request_error\"",
  ],
  // reasoning-parameters: the llama.cpp mock takes a JSON-schema answer from a template that forces a thinking block
  [
    'llama-cpp-qwen35-json-schema-with-thinking-template-400',
    'real=400 "Failed to initialize samplers: Unexpected empty grammar stack after accepting piece: <think>", mock=accepted',
  ],
  // model-and-endpoint: the LM Studio mock serves only the OpenAI-compatible path, not the native /api/v1/chat
  [
    'lmstudio-local-gemma-4-reasoning-off-refused-comfyui-deno',
    'real=400 "Model \'gemma-4-26b-a4b-it\' does not expose reasoning configuration.", mock=no mock serves http://localhost:1234/api/v1/chat',
  ],
  // model-and-endpoint: the LM Studio mock serves no Anthropic-compatible /v1/messages path
  [
    'lmstudio-local-messages-effort-xhigh-refused-free-claude-code',
    "real=400 \"request.output_config.effort: Invalid enum value. Expected 'low' | 'medium' | 'high' | 'max', received 'xhigh'\", mock=no mock serves http://localhost:1234/v1/messages",
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
  // reasoning-parameters: superseded. magistral-medium-latest took prompt_mode reasoning in May 2026; in August the
  // live API refused it on every model tried (dimetron/pi-go#245): the newer observation holds.
  [
    'mistral-magistral-medium-prompt-mode-accepted-spring-ai',
    'real=accepted, mock=400 "error Reasoning prompt mode is not enabled for this model invalid_request_error 3051"',
  ],
  // reasoning-parameters: the provider answered 200; the mock refuses it
  [
    'mistral-glm-53-reasoning-effort-max-accepted',
    "real=accepted, mock=422 \"error reasoning-replay mock: Mistral (strict)'s wording for a malformed body is not public; the request fails at 'reasoning_effort' invalid_request_error\"",
  ],
  // reasoning-parameters: the mock does not check reasoning_effort values per Mistral-served model
  ['mistral-glm-53-reasoning-effort-medium-refused', 'real=400 (wording not quoted), mock=accepted'],
  // history-structure: the mock takes an empty assistant message on Moonshot
  [
    'moonshot-empty-assistant-message-opencowork',
    'real=400 "with role \'assistant\' must not be empty", mock=accepted',
  ],
  // reasoning-echo: the mock answers the tool-call wording; a model that enforces thinking.keep=all words it as preserved thinking
  [
    'moonshot-kimi-code-preserved-thinking-missing-reasoning-kimi-cli',
    'real=400 "requires reasoning_content on every assistant message, but assistant message at index 6 is missing reasoning_content", mock=400 "thinking is enabled but reasoning_content is missing in assistant tool call message at index 6 invalid_request_error"',
  ],
  // model-and-endpoint: the mock serves every cloud model regardless of the account tier
  [
    'ollama-cloud-kimi-k26-free-tier-subscription-403-enviouswispr',
    'real=403 "this model requires a subscription", mock=accepted',
  ],
  // model-and-endpoint: the Ollama mock serves only the OpenAI-compatible path, not the native /api/chat
  [
    'ollama-local-think-unsupported-qwen3-coder-crawbot',
    'real=400 ""qwen3-coder:30b" does not support thinking", mock=no mock serves http://127.0.0.1:11434/api/chat',
  ],
  // model-and-endpoint: the OpenRouter mock serves no Responses path (/api/v1/responses)
  [
    'openrouter-responses-muse-spark-effort-max-refused-oh-my-pi',
    'real=400 "The request contains invalid parameters. Check the request body for any errors or inconsistencies.", mock=no mock serves https://openrouter.ai/api/v1/responses',
  ],
  // reasoning-signature: the mock answers a store:false reasoning item without encrypted_content with the not-persisted 404, not invalid_encrypted_content
  [
    'responses-gpt55-stale-reasoning-without-encrypted-content-sub2api',
    'real=400 "could not be verified. Reason: Encrypted content could not be decrypted or parsed.", mock=404 "Item with id \'rs_stale1\' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your inpu"',
  ],
  // history-structure: the mock checks that some item follows a reasoning item, not that each item follows its own reasoning item
  [
    'responses-message-separated-from-reasoning-by-call-continue',
    'real=400 "was provided without its required \'reasoning\' item", mock=accepted',
  ],
  // request-schema: the mock does not cap non-streaming max_tokens for Anthropic models on the gateway
  [
    'vercel-ai-gateway-opus-5-non-streaming-max-tokens-over-21k-refused',
    'real=400 "max output tokens plus reasoning effort tokens must be under 21K for anthropic/claude-opus-5", mock=accepted',
  ],
  // reasoning-parameters: the vLLM mock takes any reasoning_effort; vLLM fails in the chat template
  ['vllm-qwen38-reasoning-effort-high-template-500', 'real=500 (wording not quoted), mock=accepted'],
  // reasoning-parameters: the mock answers the api.z.ai English wording; the bigmodel.cn host answers in Chinese
  [
    'zhipu-glm-53-flash-thinking-disabled-chinese-openmaic',
    'real=400 "该模型始终思考，不支持关闭思考；请使用 low、high 或 max。", mock=400 "1210 This model always engages in thinking and cannot be disabled; please use low, high, or max"',
  ],
  // reasoning-parameters: outranked by the newer Coding Plan refusal of 2026-08-19; the mock follows the newer observation
  [
    'zhipu-glm-53-thinking-disabled-coding-plan-accepted-glm-acp-agent',
    'real=accepted, mock=400 "1210 This model always engages in thinking and cannot be disabled; please use low, high, or max"',
  ],
  // END generated entries
];
